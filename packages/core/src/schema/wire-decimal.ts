// Schemas for amounts: decimal strings in every public type; on the wire either JSON numbers
// (issuing) or strings (account, profit share), written digit for digit and never via a float.
import { isJsonNumber, JsonNumber } from "../json/json-number";
import { checkDecimal, type DecimalRule } from "../money/check-decimal";
import { decimalFromNumberText } from "../money/decimal-from-number-text";
import type { DecimalString } from "../money/decimal-string";
import { checkedValue, describeInput } from "./checked-value";

// The text of a wire amount, or undefined when it has none. A JS number is only trusted here
// because parseJson turns a number token into a JS number only when String() gives back its
// exact text; anything else arrives as a JsonNumber.
function wireText(input: unknown): string | undefined {
  if (typeof input === "string") return input;
  if (isJsonNumber(input)) return input.text;
  // String(-0) is "0": the sign of a zero is kept (JSON.parse reads "-0.00" as -0).
  if (typeof input === "number" && Number.isFinite(input))
    return Object.is(input, -0) ? "-0" : String(input);
  return undefined;
}

/**
 * Response side: an amount sent as a JSON number (JS number or JsonNumber) or as a decimal
 * string, exponent forms included; outputs a plain DecimalString ("1e2" → "100", "100.10"
 * stays "100.10"). Lenient about the sign and scale: the contract's rules bind requests.
 */
export function decimalFromWire() {
  return checkedValue<string | number | JsonNumber, DecimalString>({
    problem(input) {
      const text = wireText(input);
      if (text !== undefined && decimalFromNumberText(text) !== undefined) return undefined;
      const got = typeof input === "string" ? "" : `, got ${describeInput(input)}`;
      return `must be a decimal amount (a JSON number or a string such as "100.50")${got}`;
    },
    output: (input) => decimalFromNumberText(wireText(input) ?? "") as DecimalString,
  });
}

/**
 * Request side, for amounts the wire carries as JSON numbers: accepts a DecimalString that
 * meets `rule` and outputs a JsonNumber, which stringifyJson writes as a bare number with
 * exactly those digits. A JS number is rejected with a message to pass a decimal string.
 */
export function decimalToWire(rule: DecimalRule = {}) {
  return checkedValue<DecimalString, JsonNumber>({
    problem: (input) => checkDecimal(input, rule),
    output: (input) => new JsonNumber(input),
  });
}

/**
 * For amounts that are strings on the wire: accepts a DecimalString that meets `rule` and
 * outputs it unchanged. A JS number is rejected with a message to pass a decimal string.
 */
export function decimalString(rule: DecimalRule = {}) {
  return checkedValue<DecimalString, DecimalString>({
    problem: (input) => checkDecimal(input, rule),
    output: (input) => input,
  });
}

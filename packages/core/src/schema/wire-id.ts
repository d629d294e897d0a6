// Schemas for 64-bit ids ("Long" on the provider's side): digit strings in every public type,
// bare JSON numbers on the wire where the contract says number, and never a lossy JS number.
import { isJsonNumber, JsonNumber } from "../json/json-number";
import { checkedValue, describeInput } from "./checked-value";

const DIGITS = /^\d+$/;
// A JSON integer token: digits without leading zeros, as the wire must carry them.
const WIRE_INTEGER = /^(?:0|[1-9]\d*)$/;

/** True for digits without leading zeros: an id string idToWire sends as it is. */
export function isWireInteger(text: string): boolean {
  return WIRE_INTEGER.test(text);
}

// Messages name the rule and what to do, never the value (an id may sit next to a card number,
// and the rule is the same whatever the digits). The advice depends on the direction: a caller
// passing an id is told how to pass it, an answer read with JSON.parse how to read it.
/** A request parameter given as a JS number past 2^53. */
const UNSAFE_PARAM =
  "is a number beyond JavaScript's safe integer range, so its digits may be wrong; pass the id as a string or a bigint";
/** An answer's id that reached a schema as a JS number past 2^53 (JSON.parse corrupted it). */
const UNSAFE_ANSWER =
  "is a number beyond JavaScript's safe integer range, so its digits are already lost; read the answer with core's parseJson, which keeps them";

export type IdDirection = "request" | "response";

function fromWireProblem(input: unknown, direction: IdDirection = "response"): string | undefined {
  if (typeof input === "string") {
    return DIGITS.test(input) ? undefined : `must be an integer id (digits)`;
  }
  if (typeof input === "number") {
    if (!Number.isInteger(input) || input < 0) return `must be a non-negative integer id`;
    if (Number.isSafeInteger(input)) return undefined;
    return direction === "request" ? UNSAFE_PARAM : UNSAFE_ANSWER;
  }
  if (isJsonNumber(input)) {
    return WIRE_INTEGER.test(input.text) ? undefined : `must be a non-negative integer id`;
  }
  if (typeof input === "bigint") {
    return input >= 0n ? undefined : `must be a non-negative integer id`;
  }
  return `must be an integer id, got ${describeInput(input)}`;
}

function digitsOf(input: string | number | bigint | JsonNumber): string {
  return isJsonNumber(input) ? input.text : String(input);
}

/**
 * Response side: an id sent as a JSON number (a safe JS number or, from parseJson, a
 * JsonNumber) or as a digit string; outputs the digits as a string. Rejects a JS number past
 * 2^53, which JSON.parse has already corrupted, and anything that is not a whole number.
 */
export function idFromWire() {
  return checkedValue<string | number | bigint | JsonNumber, string>({
    problem: fromWireProblem,
    output: digitsOf,
  });
}

function toWireProblem(input: unknown): string | undefined {
  if (typeof input === "string") {
    return WIRE_INTEGER.test(input)
      ? undefined
      : `must be an id of digits without leading zeros, such as "1953712585351499776"`;
  }
  if (typeof input === "number") {
    if (!Number.isInteger(input) || input < 0) return `must be a non-negative integer id`;
    return Number.isSafeInteger(input) ? undefined : UNSAFE_PARAM;
  }
  if (typeof input === "bigint") {
    return input >= 0n ? undefined : `must be a non-negative integer id`;
  }
  return `must be an id given as a digit string, got ${describeInput(input)}`;
}

/**
 * Request side, for ids the wire carries as JSON numbers: accepts a digit string (or, for
 * convenience, a safe integer number or a bigint) and outputs a JsonNumber, which stringifyJson
 * writes as a bare number with exactly those digits.
 */
export function idToWire() {
  return checkedValue<string | number | bigint, JsonNumber>({
    problem: toWireProblem,
    output: (input) => new JsonNumber(String(input)),
  });
}

export interface IdStringOptions {
  /** Longest id the contract allows, e.g. 32 for requestId, 64 for clientRequestId. */
  maxLength?: number;
  /**
   * Which way the id goes, for the advice when it arrives as a JS number past 2^53: a request
   * parameter (the default: pass it as a string or bigint) or an answer (read it with parseJson).
   */
  direction?: IdDirection;
}

/**
 * For ids that are strings on the wire (digits or not, e.g. beneficiaryId, requestId): a
 * non-empty string up to `maxLength`. Leniently also accepts an integer id sent as a number
 * (safe JS number, bigint or JsonNumber) and outputs its digits, so a provider that switches a
 * field to a number does not break parsing.
 */
export function idString(options: IdStringOptions = {}) {
  const { maxLength, direction = "request" } = options;
  return checkedValue<string | number | bigint, string>({
    problem(input) {
      if (typeof input === "string") {
        if (input.length === 0) return "must not be empty";
        if (maxLength !== undefined && input.length > maxLength) {
          return `must be at most ${maxLength} characters, got ${input.length}`;
        }
        return undefined;
      }
      if (typeof input === "number" || typeof input === "bigint" || isJsonNumber(input)) {
        const problem = fromWireProblem(input, direction);
        if (problem !== undefined) return problem;
        const digits = digitsOf(input);
        if (maxLength !== undefined && digits.length > maxLength) {
          return `must be at most ${maxLength} characters, got ${digits.length}`;
        }
        return undefined;
      }
      return `must be a string id, got ${describeInput(input)}`;
    },
    output: (input) => digitsOf(input),
  });
}

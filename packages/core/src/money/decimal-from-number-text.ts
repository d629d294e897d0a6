// Turns any JSON number text into a plain decimal string, exactly: "1e5" → "100000",
// "1.50E-3" → "0.00150". Needed because the wire may carry amounts in exponent form.
import type { DecimalString } from "./decimal-string";
import { fromScaled } from "./scaled-decimal";

// Texts already in DecimalString form, which the conversion would give back unchanged ("-0.00"
// excepted: it becomes "0.00", so a negative needs a digit other than zero).
const PLAIN = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;
const NONZERO_DIGIT = /[1-9]/;
const NUMBER_TEXT = /^(-?)(0|[1-9]\d*)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

// An exponent this large is no amount; refusing it keeps "1e999999999" from allocating a
// billion zeros.
const MAX_EXPONENT = 400;

/**
 * The exact DecimalString for a JSON number token, or undefined when `text` is not one or its
 * exponent is beyond ±400. Digits after the point are kept as written ("1.50" stays "1.50").
 */
export function decimalFromNumberText(text: string): DecimalString | undefined {
  if (PLAIN.test(text) && (text.charCodeAt(0) !== 0x2d || NONZERO_DIGIT.test(text))) return text;
  const match = NUMBER_TEXT.exec(text);
  if (match === null) return undefined;
  const [, sign = "", int = "", fraction = "", exponentText] = match;
  if (exponentText === undefined)
    return fromScaled(BigInt(`${sign}${int}${fraction}`), fraction.length);
  // The exponent is a count of places, not money; its size is checked before it is used.
  const exponent = Number(exponentText);
  if (Math.abs(exponent) > MAX_EXPONENT) return undefined;
  const scale = fraction.length - exponent;
  const digits = `${sign}${int}${fraction}`;
  if (scale >= 0) return fromScaled(BigInt(digits), scale);
  return fromScaled(BigInt(digits + "0".repeat(-scale)), 0);
}

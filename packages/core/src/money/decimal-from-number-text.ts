// Turns any JSON number text into a plain decimal string, exactly: "1e5" → "100000",
// "1.50E-3" → "0.00150". Needed because the wire may carry amounts in exponent form.
import type { DecimalString } from "./decimal-string";
import { fromScaled } from "./scaled-decimal";

// Texts already in DecimalString form, which the conversion gives back unchanged.
const PLAIN = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;
const NUMBER_TEXT = /^(-?)(0|[1-9]\d*)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

// An exponent this large is no amount; refusing it keeps "1e999999999" from allocating a
// billion zeros.
const MAX_EXPONENT = 400;

/**
 * The exact DecimalString for a JSON number token, or undefined when `text` is not one or its
 * exponent is beyond ±400. Digits after the point are kept as written ("1.50" stays "1.50"),
 * and so is the sign of a zero ("-0.00" stays "-0.00", "-0e2" gives "-0"): the wire's text is
 * the amount, and a debit of zero is still a debit.
 */
export function decimalFromNumberText(text: string): DecimalString | undefined {
  if (PLAIN.test(text)) return text;
  const match = NUMBER_TEXT.exec(text);
  if (match === null) return undefined;
  const [, sign = "", int = "", fraction = "", exponentText] = match;
  // The exponent is a count of places, not money; its size is checked before it is used.
  const exponent = Number(exponentText ?? 0);
  if (Math.abs(exponent) > MAX_EXPONENT) return undefined;
  const scale = fraction.length - exponent;
  const digits = `${int}${fraction}${scale < 0 ? "0".repeat(-scale) : ""}`;
  // Unsigned digits, then the text's sign: BigInt has no -0 to carry it.
  return `${sign}${fromScaled(BigInt(digits), Math.max(scale, 0))}`;
}

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decimalFromNumberText } from "./decimal-from-number-text";
import { fromScaled } from "./scaled-decimal";

describe("decimalFromNumberText", () => {
  it.each([
    ["100.10", "100.10"],
    ["100", "100"],
    ["-0", "-0"],
    ["-0.00", "-0.00"],
    ["-0e2", "-0"],
    ["-0.0E-1", "-0.00"],
    ["1e5", "100000"],
    ["1E+5", "100000"],
    ["1.5e-7", "0.00000015"],
    ["1.50E-3", "0.00150"],
    ["1.0E2", "100"],
    ["-12.5e1", "-125"],
    ["1e+21", "1000000000000000000000"],
    ["12345678901234567.89", "12345678901234567.89"],
  ])("%s → %s", (text, expected) => {
    expect(decimalFromNumberText(text)).toBe(expected);
  });

  it.each(["", "abc", "01", "1.", "+1", "1e401", "1e-401", "1e99999999999999999999"])(
    "gives undefined for %j",
    (text) => {
      expect(decimalFromNumberText(text)).toBeUndefined();
    },
  );
});

describe("decimalFromNumberText, texts already plain", () => {
  // The shortcut returns such texts as they are; the conversion through BigInt is the reference.
  const plain = fc
    .tuple(
      fc.boolean(),
      fc.oneof(fc.constant("0"), fc.stringMatching(/^[1-9]\d{0,20}$/)),
      fc.option(fc.stringMatching(/^\d{1,8}$/), { nil: undefined }),
    )
    .map(
      ([negative, int, fraction]) =>
        `${negative ? "-" : ""}${int}${fraction ? `.${fraction}` : ""}`,
    );

  it("gives what the exact conversion gives, keeping the sign of a zero", () => {
    fc.assert(
      fc.property(plain, (text) => {
        const [int, fraction = ""] = text.replace("-", "").split(".");
        const sign = text.startsWith("-") ? "-" : "";
        expect(decimalFromNumberText(text)).toBe(
          sign + fromScaled(BigInt(`${int}${fraction}`), fraction.length),
        );
        // The same digits in exponent form come out alike.
        expect(decimalFromNumberText(`${text}e0`)).toBe(text);
      }),
    );
    expect(decimalFromNumberText("-0.00")).toBe("-0.00");
  });
});

import { describe, expect, it } from "vitest";
import { isJsonNumber, JsonNumber, jsonNumber } from "./json-number";

describe("JsonNumber", () => {
  it("keeps the exact token text", () => {
    const n = jsonNumber("1953712585351499776");
    expect(n.text).toBe("1953712585351499776");
    expect(String(n)).toBe("1953712585351499776");
    expect(n).toBeInstanceOf(JsonNumber);
  });

  it.each(["0", "-0", "0.10", "1e5", "1E+5", "-1.5e-7", "12345678901234567.89"])(
    "accepts %s",
    (t) => {
      expect(new JsonNumber(t).text).toBe(t);
    },
  );

  it.each([
    "",
    "01",
    "+1",
    ".5",
    "1.",
    "1e",
    "--1",
    "NaN",
    "Infinity",
    " 1",
    "1 ",
    "0x10",
    "1_000",
  ])("rejects %j", (t) => {
    expect(() => new JsonNumber(t)).toThrow(TypeError);
  });

  it("is recognised across copies of the package by its registered brand", () => {
    // A look-alike from another copy: a different class with the same Symbol.for brand.
    class OtherCopy {
      readonly text = "1";
    }
    Object.defineProperty(OtherCopy.prototype, Symbol.for("merchantkit.JsonNumber"), {
      value: true,
    });
    expect(isJsonNumber(new OtherCopy())).toBe(true);
    expect(isJsonNumber(jsonNumber("1"))).toBe(true);
    expect(isJsonNumber({ text: "1" })).toBe(false);
    expect(isJsonNumber("1")).toBe(false);
    expect(isJsonNumber(1)).toBe(false);
    expect(isJsonNumber(null)).toBe(false);
  });
});

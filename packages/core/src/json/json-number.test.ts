import { describe, expect, it } from "vitest";
import { signingText } from "../signing/sign";
import { isJsonNumber, JsonNumber, jsonNumber } from "./json-number";
import { stringifyJson } from "./stringify-json";

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

  it("survives JSON.stringify as its exact digits, and stringifyJson and signing as a number", () => {
    const event = {
      cardId: new JsonNumber("1953712585351499776"),
      limit: new JsonNumber("100.50"),
    };
    // An unknown event's data stored with JSON.stringify once read {"cardId":{"text":"…"}}.
    expect(JSON.stringify(event)).toBe('{"cardId":"1953712585351499776","limit":"100.50"}');
    expect(stringifyJson(event)).toBe('{"cardId":1953712585351499776,"limit":100.50}');
    // The signing text concatenates the values in key order: the digits, not an object.
    expect(signingText(event)).toBe("1953712585351499776100.50");
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

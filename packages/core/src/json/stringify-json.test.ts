import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonNumber } from "./json-number";
import { stringifyJson } from "./stringify-json";

describe("stringifyJson", () => {
  it("writes JsonNumber as its raw text and bigint as digits", () => {
    expect(
      stringifyJson({
        id: jsonNumber("1953712585351499776"),
        amount: jsonNumber("100.10"),
        n: 10n ** 20n,
      }),
    ).toBe('{"id":1953712585351499776,"amount":100.10,"n":100000000000000000000}');
    expect(stringifyJson(jsonNumber("-0"))).toBe("-0");
    expect(stringifyJson([-9007199254740993n])).toBe("[-9007199254740993]");
  });

  it("behaves like JSON.stringify for ordinary values", () => {
    const value = {
      b: 1,
      a: 'x"y\\z\n\u0000\u001f\u2028é😀',
      lone: "a\ud800b\udc00",
      nested: [1, "two", null, true, false, { z: [] }, {}],
      date: new Date(Date.UTC(2024, 0, 2, 3, 4, 5)),
      dropped: undefined,
      fn: () => 1,
      sym: Symbol("s"),
      arr: [undefined, () => 1, Symbol("s")],
      boxed: [new Number(5), new String("s"), new Boolean(false)],
      negZero: -0,
      'key "quoted"': 1,
      withToJSON: { toJSON: (key: string) => `key was ${key}` },
    };
    expect(stringifyJson(value)).toBe(JSON.stringify(value));
  });

  it("honours toJSON that returns a JsonNumber", () => {
    const money = { toJSON: () => jsonNumber("5.00") };
    expect(stringifyJson({ money })).toBe('{"money":5.00}');
  });

  it.each([
    [{ amount: Number.NaN }, "$.amount"],
    [{ a: [1, { b: Number.POSITIVE_INFINITY }] }, "$.a[1].b"],
    [[Number.NEGATIVE_INFINITY], "$[0]"],
    [{ "odd key": Number.NaN }, '$["odd key"]'],
    [Number.NaN, "$"],
  ])("throws a TypeError naming the path of a non-finite number: %j", (value, path) => {
    expect(() => stringifyJson(value)).toThrow(TypeError);
    expect(() => stringifyJson(value)).toThrow(`cannot write ${path}: `);
  });

  it("throws a TypeError for circular structures and for values with no JSON form", () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = { back: cyclic };
    expect(() => stringifyJson(cyclic)).toThrow(
      "cannot write $.self.back: the structure is circular",
    );
    expect(() => stringifyJson(undefined)).toThrow(TypeError);
    expect(() => stringifyJson(() => 1)).toThrow(TypeError);
  });

  it("allows the same object twice when it is not circular", () => {
    const shared = { x: 1 };
    expect(stringifyJson([shared, shared])).toBe('[{"x":1},{"x":1}]');
  });

  it("matches JSON.stringify on arbitrary JSON values", () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: "binary", maxDepth: 4 }), (value) => {
        expect(stringifyJson(value)).toBe(JSON.stringify(value));
      }),
      { numRuns: 100 },
    );
  });
});

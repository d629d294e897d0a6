import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isJsonNumber, JsonNumber } from "./json-number";
import { parseJson } from "./parse-json";
import { stringifyJson } from "./stringify-json";

const roundTrip = (text: string) => stringifyJson(parseJson(text));

describe("parseJson", () => {
  it("keeps a 64-bit id beyond 2^53 digit for digit", () => {
    const text = '{"id":1953712585351499776}';
    const parsed = parseJson(text) as { id: JsonNumber };
    expect(isJsonNumber(parsed.id)).toBe(true);
    expect(parsed.id.text).toBe("1953712585351499776");
    expect(roundTrip(text)).toBe(text);
    // What JSON.parse would have done:
    expect(JSON.stringify(JSON.parse(text))).toBe('{"id":1953712585351499800}');
  });

  it.each([
    "0.10",
    "12345678901234567.89",
    "1e5",
    "1E5",
    "-0",
    "1.0",
    "9007199254740993",
    "1.50e-7",
    "1e+5",
  ])("keeps %s as a JsonNumber with its exact text", (token) => {
    const parsed = parseJson(`[${token}]`) as JsonNumber[];
    expect(parsed[0]).toBeInstanceOf(JsonNumber);
    expect(parsed[0]?.text).toBe(token);
    expect(roundTrip(`{"a":${token}}`)).toBe(`{"a":${token}}`);
  });

  it.each([
    "0",
    "1",
    "-1",
    "100.1",
    "0.5",
    "9007199254740991",
    "1234567890123456",
    "1e+21",
    "1e-7",
  ])("returns a plain number when the token prints back the same: %s", (token) => {
    const parsed = parseJson(token);
    if (String(Number(token)) === token) {
      expect(parsed).toBe(Number(token));
    } else {
      expect(parsed).toBeInstanceOf(JsonNumber);
    }
  });

  it("handles nested arrays and objects with mixed numbers", () => {
    const text =
      '{"data":{"records":[{"cardId":1953712585351499776,"amount":100.10,"fee":0.5,"n":[1,[2,1953712585351499777]],"x":null}],"total":3}}';
    const parsed = parseJson(text) as {
      data: { records: { cardId: JsonNumber; amount: JsonNumber; fee: number }[]; total: number };
    };
    const record = parsed.data.records[0];
    expect(record?.cardId.text).toBe("1953712585351499776");
    expect(record?.amount.text).toBe("100.10");
    expect(record?.fee).toBe(0.5);
    expect(parsed.data.total).toBe(3);
    expect(roundTrip(text)).toBe(text);
  });

  it("does not touch digits, quotes or \\u0000 inside strings", () => {
    const text =
      '{"a":"1953712585351499776","b":"say \\"12345678901234567890\\"","c":"\\u0000","d":"\\u00001e5","\\u0000k":1953712585351499776,"e":"\\\\u0000"}';
    const parsed = parseJson(text) as Record<string, unknown>;
    expect(parsed.a).toBe("1953712585351499776");
    expect(parsed.b).toBe('say "12345678901234567890"');
    expect(parsed.c).toBe("\u0000");
    expect(parsed.d).toBe("\u00001e5");
    expect(parsed.e).toBe("\\u0000");
    expect(Object.keys(parsed)).toEqual(["a", "b", "c", "d", "\u0000k", "e"]);
    expect((parsed["\u0000k"] as JsonNumber).text).toBe("1953712585351499776");
    expect(roundTrip(text)).toBe(text);
  });

  it("treats \\u0000 strings normally when there is nothing to rewrite", () => {
    expect(parseJson('{"\\u0000":"\\u0000\\u0000",  "n": 1}')).toEqual({
      "\u0000": "\u0000\u0000",
      n: 1,
    });
  });

  it("keeps __proto__ an own property and never pollutes prototypes", () => {
    for (const text of [
      '{"__proto__":{"polluted":1953712585351499776}}',
      '{"\\u0000x":1,"__proto__":{"polluted":1}, "n": 1953712585351499776}',
      '{"__proto__":{"polluted":1}}',
    ]) {
      const parsed = parseJson(text) as Record<string, unknown>;
      expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
      expect(Object.hasOwn(parsed, "__proto__")).toBe(true);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(roundTrip(text)).toBe(stringifyJson(parsed));
    }
  });

  it.each([
    "",
    "{",
    "[1,]",
    "[01]",
    "[1.]",
    "[-]",
    "[.5]",
    "[+1]",
    '["abc]',
    '{"a":1953712585351499776',
    "{1953712585351499776:1}",
    '{"a":1953712585351499776,}',
    "[1953712585351499776 1]",
    "[NaN]",
    "[Infinity]",
    '["\\u0000" 1953712585351499776]',
    "[1953712585351499776]x",
    '"\n"',
  ])("throws SyntaxError for invalid JSON %j", (text) => {
    expect(() => parseJson(text)).toThrow(SyntaxError);
  });

  it("rejects a non-string argument with a TypeError", () => {
    expect(() => parseJson(42 as unknown as string)).toThrow(TypeError);
  });

  it("parses huge texts without overflowing the regex stack", () => {
    // An unbounded skip loop overflows V8's regex backtrack stack at about 3 million tokens.
    const ints = `[${"1,".repeat(4_000_000)}1]`;
    expect((parseJson(ints) as number[]).length).toBe(4_000_001);
    const bigs = `[${"1953712585351499776,".repeat(100_000)}1]`;
    const parsed = parseJson(bigs) as JsonNumber[];
    expect(parsed.length).toBe(100_001);
    expect(parsed[99_999]?.text).toBe("1953712585351499776");
  });
});

// Number tokens of every kind, written as their exact JSON text.
const numberToken = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
  fc.integer().map(String),
  fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map(String),
  fc
    .tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 20n }), fc.stringMatching(/^\d{1,20}$/))
    .map(([neg, int, frac]) => `${neg ? "-" : ""}${int}.${frac}`),
  fc
    .tuple(
      fc.bigInt({ min: -(10n ** 18n), max: 10n ** 18n }),
      fc.constantFrom("e", "E", "e+", "e-", "E-"),
      fc.nat(400),
    )
    .map(([m, e, x]) => `${m}${e}${x}`),
  fc.constantFrom("0", "-0", "0.0", "1.0", "0.10", "100.10", "9007199254740993", "1e21", "1e+21"),
);

const stringText = fc
  .oneof(
    fc.string({ unit: "binary" }),
    fc.string({ unit: "binary-ascii" }),
    fc.string().map((s) => `\u0000${s}`),
    fc.constantFrom("\u0000", "\u0000\u0000", "\ud800", "a\udc00b", "1953712585351499776"),
  )
  .map((s) => JSON.stringify(s));

// JS objects list integer-like keys first whatever the text says (JSON.parse does the same), so
// keys that are array indexes would make "canonical" order ambiguous; leave them out.
const keyText = stringText.filter((k) => !/^"(?:0|[1-9]\d*)"$/.test(k));

// A JSON text built token by token, in canonical form (no whitespace, exact number tokens).
const { text: canonicalText } = fc.letrec<{ text: string }>((tie) => ({
  text: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    numberToken,
    stringText,
    fc.constantFrom("null", "true", "false"),
    fc.array(tie("text"), { maxLength: 5 }).map((items) => `[${items.join(",")}]`),
    fc
      .uniqueArray(fc.tuple(keyText, tie("text")), {
        maxLength: 5,
        selector: ([k]) => JSON.parse(k),
      })
      .map((entries) => `{${entries.map(([k, v]) => `${k}:${v}`).join(",")}}`),
  ),
}));

const whitespace = fc.stringMatching(/^[ \t\n\r]{0,3}$/);

describe("parseJson + stringifyJson properties", () => {
  it("round-trips every canonical text digit for digit", () => {
    fc.assert(
      fc.property(canonicalText, (text) => {
        expect(roundTrip(text)).toBe(text);
      }),
      { numRuns: 500 },
    );
  });

  it("writes a text with whitespace back in its canonical form", () => {
    fc.assert(
      fc.property(canonicalText, whitespace, whitespace, (text, before, after) => {
        // Whitespace around the whole text and after every structural character.
        const spaced = `${before}${text.replace(/([,:[{])(?=(?:[^"\\]|\\.|"(?:[^"\\]|\\.)*")*$)/g, `$1${after}`)}${after}`;
        expect(roundTrip(spaced)).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  it("agrees with JSON.parse/JSON.stringify when every number is safe and canonical", () => {
    fc.assert(
      fc.property(fc.json({ stringUnit: "binary" }), (text) => {
        expect(roundTrip(text)).toBe(JSON.stringify(JSON.parse(text)));
        // Integers beyond 2^53 are JsonNumbers by design, even when they happen to print back.
        if (!hasUnsafeInteger(JSON.parse(text))) expect(parseJson(text)).toEqual(JSON.parse(text));
      }),
      { numRuns: 500 },
    );
  });

  it("gives a plain number exactly when the token prints back the same and is not an integer beyond 2^53", () => {
    fc.assert(
      fc.property(numberToken, (token) => {
        const parsed = parseJson(token);
        const n = Number(token);
        const plain =
          String(n) === token &&
          (Number.isSafeInteger(n) || !Number.isInteger(n) || /e/i.test(token));
        if (plain) expect(parsed).toBe(n);
        else expect((parsed as JsonNumber).text).toBe(token);
      }),
      { numRuns: 1000 },
    );
  });
});

function hasUnsafeInteger(value: unknown): boolean {
  if (typeof value === "number") return Number.isInteger(value) && !Number.isSafeInteger(value);
  if (Array.isArray(value)) return value.some(hasUnsafeInteger);
  if (value !== null && typeof value === "object")
    return Object.values(value).some(hasUnsafeInteger);
  return false;
}

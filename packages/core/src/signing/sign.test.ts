import { createHash } from "node:crypto";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { jsonNumber } from "../json/json-number";
import { innerFirstJson } from "./inner-first-json";
import { sign, signingText, verifySign } from "./sign";

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

describe("sign: official vectors (provider-notes §1)", () => {
  it("vector 1: flat parameters, one marked not signed", async () => {
    const params = {
      test3: "test3value",
      test2: "test2value",
      test1: "0",
      test5: "",
      test4: "test4value",
      test6: null,
    };
    const secret = "3b5e10b65bff4172a5b9ca2d2ec00a6e";
    expect(signingText(params, { unsigned: ["test2"] })).toBe("0test3valuetest4value");
    expect(await sign(params, secret, { unsigned: ["test2"] })).toBe(
      "836831ae68fce5e61d4a64363bb72c636efe6e94b62ecaa8d1c95fc58cc9cbed",
    );
  });

  it("vector 2: nested object stringified inner-first", async () => {
    const params = {
      z: "last",
      a: "first",
      nested: { appId: "app", products: [{ currency: "USD", price: "5.00" }] },
      empty: "",
      nil: null,
      sign: "ignored",
    };
    const nestedText =
      '{"appId":"app","products":"[{\\"currency\\":\\"USD\\",\\"price\\":\\"5.00\\"}]"}';
    expect(innerFirstJson(params.nested)).toBe(nestedText);
    expect(signingText(params)).toBe(`first${nestedText}last`);
    expect(await sign(params, "secret")).toBe(
      "7037dfbd20a6e54890f8e0a1f947ef6568dc17a80e67ef6aed5142259e700ff0",
    );
    expect(
      await verifySign(
        { ...params, sign: "7037dfbd20a6e54890f8e0a1f947ef6568dc17a80e67ef6aed5142259e700ff0" },
        "secret",
      ),
    ).toBe(true);
  });
});

describe("sign: value rules", () => {
  it("writes numbers, booleans, bigints and JsonNumbers as their text", async () => {
    expect(
      signingText({
        a: 1,
        b: true,
        c: 10n ** 20n,
        d: jsonNumber("1953712585351499776"),
        e: jsonNumber("100.10"),
      }),
    ).toBe("1true1000000000000000000001953712585351499776100.10");
  });

  it("keeps JsonNumber digits inside nested values", async () => {
    expect(
      signingText({ x: { id: jsonNumber("1953712585351499776"), amount: jsonNumber("0.10") } }),
    ).toBe('{"id":1953712585351499776,"amount":0.10}');
  });

  it("normalises array elements but keeps them objects", async () => {
    expect(innerFirstJson([{ a: { b: [1] } }, [{ c: { d: 1 } }], "s"])).toBe(
      '[{"a":"{\\"b\\":\\"[1]\\"}"},[{"c":"{\\"d\\":1}"}],"s"]',
    );
  });

  it("sorts names by code unit, not by locale", async () => {
    // A < B < _ < a < b in ASCII; localeCompare would put "_" first and mix the cases.
    expect(signingText({ b: "2", B: "1", a: "3", _: "4", A: "0" })).toBe("01432");
  });

  it("refuses NaN and an empty secret", async () => {
    await expect(sign({ amount: Number.NaN }, "k")).rejects.toThrow(TypeError);
    await expect(sign({ a: "1" }, "")).rejects.toThrow(TypeError);
  });

  it("hashes the signing text followed by the secret", async () => {
    const params = { merchantNo: "800001", amount: "100.10", requestId: "r-1" };
    expect(await sign(params, "s3cret")).toBe(sha256(`${signingText(params)}s3cret`));
    expect(signingText(params)).not.toContain("s3cret");
  });
});

describe("verifySign", () => {
  const params = {
    merchantNo: "800001",
    amount: "100.10",
    payoutId: jsonNumber("1953712585351499776"),
  };
  let signature = "";
  beforeAll(async () => {
    signature = await sign(params, "key");
  });

  it("accepts its own sign, in either case", async () => {
    expect(await verifySign({ ...params, sign: signature }, "key")).toBe(true);
    expect(await verifySign({ ...params, sign: signature.toUpperCase() }, "key")).toBe(true);
  });

  it("returns false, never throws, for a missing, non-string or wrong-length sign", async () => {
    expect(await verifySign(params, "key")).toBe(false);
    expect(await verifySign({ ...params, sign: 42 }, "key")).toBe(false);
    expect(await verifySign({ ...params, sign: null }, "key")).toBe(false);
    expect(await verifySign({ ...params, sign: signature.slice(1) }, "key")).toBe(false);
    expect(await verifySign({ ...params, sign: `${signature}0` }, "key")).toBe(false);
    expect(await verifySign({ ...params, sign: "é".repeat(64) }, "key")).toBe(false);
  });

  it("rejects a wrong secret", async () => {
    expect(await verifySign({ ...params, sign: signature }, "other")).toBe(false);
  });
});

// Parameter maps with names that are never "sign" and values of every signed kind.
const name = fc
  .string({ minLength: 1, maxLength: 8 })
  .filter((n) => n !== "sign" && n !== "__proto__");
const signedValue = fc.oneof(
  fc.string({ minLength: 1 }),
  fc.constant("0"),
  fc.integer(),
  fc.boolean(),
  fc.dictionary(
    fc.string({ maxLength: 4 }),
    fc.oneof(fc.string(), fc.integer(), fc.array(fc.string())),
    {
      maxKeys: 3,
    },
  ),
);
const params = fc.dictionary(name, signedValue, { minKeys: 1, maxKeys: 8 });
const shuffled = <T>(list: readonly T[], seed: number) =>
  [...list]
    .map((item, i) => ({ item, k: (i * 7919 + seed) % 104729 }))
    .sort((a, b) => a.k - b.k)
    .map((x) => x.item);

describe("sign: properties", () => {
  it("does not depend on key insertion order", async () => {
    await fc.assert(
      fc.asyncProperty(params, fc.nat(), async (p, seed) => {
        const reordered = Object.fromEntries(shuffled(Object.entries(p), seed));
        expect(await sign(reordered, "k")).toBe(await sign(p, "k"));
      }),
    );
  });

  it("ignores added null, undefined and empty-string parameters", async () => {
    await fc.assert(
      fc.asyncProperty(
        params,
        name,
        fc.constantFrom(null, undefined, ""),
        async (p, extra, empty) => {
          fc.pre(!(extra in p));
          expect(await sign({ ...p, [extra]: empty }, "k")).toBe(await sign(p, "k"));
        },
      ),
    );
  });

  it('changes when a "0" parameter is added', async () => {
    await fc.assert(
      fc.asyncProperty(params, name, async (p, extra) => {
        fc.pre(!(extra in p));
        expect(await sign({ ...p, [extra]: "0" }, "k")).not.toBe(await sign(p, "k"));
      }),
    );
  });

  it("signs a nested value as the manually built inner-first text", () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.array(fc.record({ currency: fc.string(), price: fc.string() }), { maxLength: 3 }),
        fc.dictionary(fc.string({ maxLength: 3 }), fc.string(), { maxKeys: 3 }),
        (appId, products, meta) => {
          const manual = `{"appId":${JSON.stringify(appId)},"products":${JSON.stringify(JSON.stringify(products))},"meta":${JSON.stringify(JSON.stringify(meta))}}`;
          expect(signingText({ nested: { appId, products, meta } })).toBe(manual);
        },
      ),
    );
  });

  it("verifies its own sign and rejects a change to any one signed value", async () => {
    await fc.assert(
      fc.asyncProperty(
        params,
        fc.nat(),
        fc.string({ minLength: 1 }),
        async (p, pick, replacement) => {
          const withSign = { ...p, sign: await sign(p, "k") };
          expect(await verifySign(withSign, "k")).toBe(true);
          const names = Object.keys(p);
          const target = names[pick % names.length] as string;
          const changed = { ...withSign, [target]: replacement };
          fc.pre(signingText(changed) !== signingText(withSign));
          expect(await verifySign(changed, "k")).toBe(false);
        },
      ),
    );
  });
});

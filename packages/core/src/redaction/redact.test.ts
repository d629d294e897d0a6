import { describe, expect, it } from "vitest";
import { parseJson } from "../json/parse-json";
import { stringifyJson } from "../json/stringify-json";
import { REDACTED, redact, redactHeaders } from "./redact";

describe("redact", () => {
  it("replaces secrets, signs and card data at any depth, case-insensitively", () => {
    const input = {
      merchantNo: "M1",
      sign: "abc123",
      nested: { ApiKey: "k-1", list: [{ cardNumber: "4111111111111111", amount: "1.00" }] },
      card3dsValues: "123456",
      idNumber: "S1234567A",
    };
    const out = redact(input);
    expect(out).toEqual({
      merchantNo: "M1",
      sign: REDACTED,
      nested: { ApiKey: REDACTED, list: [{ cardNumber: REDACTED, amount: "1.00" }] },
      card3dsValues: REDACTED,
      idNumber: REDACTED,
    });
    expect(input.sign).toBe("abc123"); // the original is untouched
  });

  it("redacts inside JSON-encoded string fields and keeps 64-bit ids exact", () => {
    const accountInfomation = stringifyJson({
      cardNumber: "6222020000000000000",
      accountType: "1",
    });
    const body = parseJson(
      `{"beneficiaryId":1953712585351499776,"accountInfomation":${JSON.stringify(accountInfomation)}}`,
    );
    const text = stringifyJson(redact(body));
    expect(text).not.toContain("6222020000000000000");
    expect(text).toContain("1953712585351499776");
    expect(text).toContain("accountType");
  });

  it("redacts sensitive headers", () => {
    const headers = new Headers({
      apikey: "secret-key",
      "x-timestamp": "1700000000",
      "X-Signature": "ff",
    });
    expect(redactHeaders(headers)).toEqual({
      apikey: REDACTED,
      "x-timestamp": "1700000000",
      "x-signature": REDACTED,
    });
  });

  it("leaves empty sensitive values alone so a missing sign is visible as missing", () => {
    expect(redact({ sign: "", apikey: null })).toEqual({ sign: "", apikey: null });
  });

  it("keeps an own __proto__ key (JSON.parse makes one) as a field, not the copy's prototype", () => {
    const input = parseJson(
      '{"__proto__":{"cardNumber":"4111111111111111","x":1},"a":1}',
    ) as object;
    const out = redact(input) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(["__proto__", "a"]);
    expect(stringifyJson(out)).toBe('{"__proto__":{"cardNumber":"[REDACTED]","x":1},"a":1}');
  });
});

import { describe, expect, it } from "vitest";
import { jsonNumber } from "../json/json-number";
import { parseJson } from "../json/parse-json";
import { stringifyJson } from "../json/stringify-json";
import { REDACTED, redact, redactHeaders, redactText } from "./redact";

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

  it("redacts phone numbers: beneficiary phone and walletPhone, payer phoneNumber, cardholder mobile", () => {
    const input = {
      receiverInfo: JSON.stringify({ firstName: "Ada", phone: "5551234567" }),
      accountInfomation: { walletPhone: "+6591234567" },
      payerDetail: { phoneNumber: "91234567", areaCode: "65" },
      mobile: "13800138000",
      mobileAreaCode: "86",
    };
    expect(redact(input)).toEqual({
      receiverInfo: JSON.stringify({ firstName: "Ada", phone: REDACTED }),
      accountInfomation: { walletPhone: REDACTED },
      payerDetail: { phoneNumber: REDACTED, areaCode: "65" },
      mobile: REDACTED,
      mobileAreaCode: "86",
    });
  });

  it("redacts PINs and card security codes under the names they go by", () => {
    const input = {
      pin: "9876",
      PIN: "1234",
      pinCode: "1111",
      cardPin: "2222",
      cvv: "123",
      CVV2: "456",
      cvc: "789",
      cvc2: "012",
      cvn2: "345",
      securityCode: "678",
      cardCvv: "901",
      shipping: "kept",
      pinyin: "kept",
    };
    const out = redact(input);
    for (const name of Object.keys(input))
      expect(out[name as keyof typeof input]).toBe(
        name === "shipping" || name === "pinyin" ? "kept" : REDACTED,
      );
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

  it("masks card-like digit runs in free text and under names no list holds", () => {
    const out = redact({
      respMsg: "invalid cardNumber 4111111111111111",
      note: "card 4111 1111 1111 1111 or 4111-1111-1111-1111 here",
      cardNo: "4111111111111111",
      panAsNumber: 4111111111111111,
      longPan: jsonNumber("6222020000000000000"),
      nested: [{ remark: "refund to 5500000000000004" }],
    });
    const text = JSON.stringify(out);
    expect(text).not.toMatch(/4111|5500|6222/);
    expect(out).toMatchObject({
      respMsg: "invalid cardNumber ****************",
      note: "card **** **** **** **** or ****-****-****-**** here",
      cardNo: "****************",
      panAsNumber: "****************",
    });
  });

  it("keeps ids, keys, dates, amounts and UUIDs, which only look like digits", () => {
    const input = {
      cardId: "1953712585351499776",
      serviceIds: ["1953712585351499776", "1953712585351499777"],
      beneficiaryID: "1953712585351499776",
      requestId: "3f2a1234567890123456b7c8d9e0f1a2",
      profitReference: "12345678-1234-4123-8123-123456789012",
      operateRecordId: jsonNumber("1953712585351499776"),
      reference: "key 3f2a1234567890123456b7c8d9e0f1a2 sent",
      createTime: "2026-11-26 17:30:57",
      amount: "100000.00",
      note: "call +1 555 123 4567", // 11 digits: no card number (a phone field is redacted by name)
    };
    expect(redact(input)).toEqual(input);
  });

  it("blanks the credentials it is given wherever they appear verbatim", () => {
    const key = "sandbox-issuing-api-key";
    const out = redact(
      { respMsg: `bad key ${key}`, data: { echo: [`x${key}y`] }, ok: "fine" },
      { secrets: [key] },
    );
    expect(JSON.stringify(out)).not.toContain(key);
    expect(out).toEqual({
      respMsg: `bad key ${REDACTED}`,
      data: { echo: [`x${REDACTED}y`] },
      ok: "fine",
    });
    expect(redactText(`<html>key=${key}</html>`, { secrets: [key] })).toBe(
      `<html>key=${REDACTED}</html>`,
    );
    // A "secret" of a few characters would blank ordinary words: not looked for.
    expect(redactText("ok, key k", { secrets: ["k", "ok"] })).toBe("ok, key k");
  });

  // How people and systems write a card number besides plain, single-spaced or dashed digits.
  const WRITTEN = [
    ["dots", "4111.1111.1111.1111", "****.****.****.****"],
    ["slashes", "4111/1111/1111/1111", "****/****/****/****"],
    ["underscores", "4111_1111_1111_1111", "****_****_****_****"],
    ["no-break spaces", "4111\u00a01111\u00a01111\u00a01111", "****\u00a0****\u00a0****\u00a0****"],
    [
      "narrow no-break spaces",
      "4111\u202f1111\u202f1111\u202f1111",
      "****\u202f****\u202f****\u202f****",
    ],
    ["figure spaces", "4111\u20071111\u20071111\u20071111", "****\u2007****\u2007****\u2007****"],
    ["thin spaces", "4111\u20091111\u20091111\u20091111", "****\u2009****\u2009****\u2009****"],
    ["several spaces", "4111  1111  1111  1111", "****  ****  ****  ****"],
    ["spaced dashes", "4111 - 1111 - 1111 - 1111", "**** - **** - **** - ****"],
    ["en dashes", "4111\u20131111\u20131111\u20131111", "****\u2013****\u2013****\u2013****"],
    ["19 digits, dots", "4111.1111.1111.1111.102", "****.****.****.****.***"],
    ["Amex, dots (4-6-5)", "3782.822463.10005", "****.******.*****"],
    ["Diners, slashes (4-6-4)", "3056/930902/5904", "****/******/****"],
  ] as const;

  it.each(WRITTEN)(
    "masks a card number written with %s, nested and in free text",
    (_, pan, masked) => {
      const rest =
        "on 2026/11/26 at 2026-11-26T23:14:57.123Z: 12.30 of 1234567890123456.785, v1.2.3, +1 555 123 4567";
      const out = redact({
        data: { extraInfo: { note: pan, list: [pan] } },
        respMsg: `paid ${pan} ${rest}`,
      });
      expect(out).toEqual({
        data: { extraInfo: { note: masked, list: [masked] } },
        respMsg: `paid ${masked} ${rest}`,
      });
      expect(redactText(`card ${pan}.`)).toBe(`card ${masked}.`);
    },
  );

  it("keeps decimal amounts, unless their digits could be a card number", () => {
    const text = "amount 1234567890123456.785, rate 0.4111111111111112";
    expect(redactText(text)).toBe(text);
    expect(redact({ note: text })).toEqual({ note: text });
    // 13 to 19 digits passing the Luhn check: a card number typed into an amount is masked.
    expect(redactText("amount 4111111111111111.00")).toBe("amount ****************.00");
    // Grouped digits before a full stop are still a card number.
    expect(redactText("card 4111 1111 1111 1111.50")).toBe("card **** **** **** ****.50");
  });

  it("leaves dots and slashes alone that do not group digits the way card numbers are", () => {
    const text =
      "2026/11/26 2026.11.26 1.2.3 10.0.0.1 192.168.100.200 4111.1111.1111 4111.11111.111.1111 4111.1111/1111.1111 v1.4111.1111.1111.1111 4111.1111.1111.1111.1";
    expect(redactText(text)).toBe(text);
  });

  it("keeps 64-bit ids in fields named as ids, and masks them in free text as before", () => {
    const input = { cardId: "1953712585351499776", serviceIds: ["1953712585351499776"] };
    expect(redact(input)).toEqual(input);
    expect(redactText("card 1953712585351499776")).toBe("card *******************");
  });
});

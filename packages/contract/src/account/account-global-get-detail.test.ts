import { parseJson, stringifyJson } from "@merchantkit/core";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { accountGlobalGetDetail as endpoint } from "./account-global-get-detail";

const detail = `{
  "globalAccountId": "1953712585351499776",
  "globalAccountNo": "GA0001",
  "globalAccountName": "Acme Ltd",
  "customerId": "C1",
  "customerName": "Acme",
  "mainAccountNo": "M1",
  "mainAccountName": "Acme main",
  "iban": "GB33BUKB20201555555555",
  "bankCode": "BUKB",
  "swiftCode": "BUKBGB22",
  "bankAddress": "1 Bank St",
  "bankName": "Bank",
  "bankCountry": "GB",
  "bizTypeList": ["COLLECTION"],
  "supportCurrencies": ["USD", "EUR"],
  "institution": "Inst",
  "webhookUrl": "https://example.com/hook",
  "operatingEntity": "OE",
  "status": "Active",
  "globalActiveTime": "2026-04-28T10:15:30.000Z",
  "addressCity": "London",
  "addressPostalCode": "EC1A 1BB"
}`;

describe("account global/getDetail", () => {
  it("is a read on the v1 account path with requestId filled by the transport", () => {
    expect(endpoint.name).toBe("account.global.getDetail");
    expect(endpoint.path).toBe("/api/v1/account/global/getDetail");
    expect(endpoint.kind).toBe("read");
    expect(endpoint.idempotencyKey).toEqual({ field: "requestId", maxLength: 64 });
    expect(endpoint.onBehalfOf).toBe(true);
  });

  it("needs globalAccountId or globalAccountNo, either way round", () => {
    const cases = [
      [{ requestId: "r" }, false],
      [{ requestId: "r", globalAccountId: "1953712585351499776" }, true],
      [{ requestId: "r", globalAccountNo: "GA0001" }, true],
      [{ requestId: "r", globalAccountId: "1", globalAccountNo: "GA0001" }, true],
    ] as const;
    for (const [params, ok] of cases) {
      const sent = v.safeParse(endpoint.request, params);
      expect(sent.success).toBe(ok);
      const received = v.safeParse(endpoint.requestCodec.decode, parseJson(JSON.stringify(params)));
      expect(received.success).toBe(ok);
    }
    const neither = v.safeParse(endpoint.request, { requestId: "r" });
    expect(neither.issues?.[0]?.message).toBe("is required when globalAccountNo is absent");
  });

  it("carries globalAccountId as a digit string on the wire", () => {
    const wire = v.parse(endpoint.request, {
      requestId: "r",
      onBehalfOf: "child-1",
      globalAccountId: "1953712585351499776",
    });
    expect(stringifyJson(wire)).toBe(
      '{"requestId":"r","onBehalfOf":"child-1","globalAccountId":"1953712585351499776"}',
    );
    expect(v.safeParse(endpoint.request, { requestId: "r", globalAccountId: "GA-1" }).success).toBe(
      false,
    );
    expect(v.safeParse(endpoint.request, { requestId: "r", globalAccountId: "" }).success).toBe(
      false,
    );
  });

  it("holds requestId to 64 characters", () => {
    const at = { requestId: "x".repeat(64), globalAccountNo: "GA" };
    expect(v.safeParse(endpoint.request, at).success).toBe(true);
    expect(v.safeParse(endpoint.request, { ...at, requestId: "x".repeat(65) }).success).toBe(false);
  });

  it("decodes the documented Global Account fields", () => {
    const data = v.parse(endpoint.response, parseJson(detail));
    expect(data.globalAccountId).toBe("1953712585351499776");
    expect(data.status).toBe("Active");
    expect(data.supportCurrencies).toEqual(["USD", "EUR"]);
    expect(data.bizTypeList).toEqual(["COLLECTION"]);
    expect(data.globalActiveTime).toBe("2026-04-28T10:15:30.000Z");
  });

  it("reads leniently: only globalAccountId is needed, nulls and new statuses pass", () => {
    const data = v.parse(
      endpoint.response,
      parseJson('{"globalAccountId":1953712585351499776,"iban":null,"status":"Frozen"}'),
    );
    expect(data.globalAccountId).toBe("1953712585351499776");
    expect(data.iban ?? undefined).toBeUndefined();
    expect(data.status).toBe("Frozen");
    expect(v.safeParse(endpoint.response, parseJson('{"globalAccountNo":"GA"}')).success).toBe(
      false,
    );
  });
});

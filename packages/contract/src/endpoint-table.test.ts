import { describe, expect, it } from "vitest";
import { endpoints, findEndpoint, originPath } from "./endpoint-table";

/** Every path the contract (service-interface.md, "Endpoints") lists, as served on one origin. */
const CONTRACT_PATHS = [
  "/payout/api/v1/acct/queryPaymentFeild",
  "/payout/api/v1/beneficiary/add",
  "/payout/api/v1/beneficiary/edit",
  "/payout/api/v1/txn/remittance",
  "/payout/api/v1/txn/query",
  "/payout/api/v1/txn/queryVoucher",
  "/payout/api/v1/acct/addPayer",
  "/payout/api/v1/acct/queryPayer",
  "/payout/api/v1/txn/queryList",
  "/account-server/api/v2/account/transactions/service/query",
  "/account-server/api/v1/account/global/getDetail",
  "/api/v1/merchant/cardholder/createCardholder",
  "/api/v1/merchant/cardholder/updateCardholder",
  "/api/v1/merchant/card/getOperateRecordList",
  "/api/v1/merchant/card/query3dsNotify",
  "/api/v1/merchant/queryTxnList",
  "/api/v1/merchant/card/returnCardBalance",
  "/api/v1/merchant/card/operate",
  "/profit/share",
];

/** The documented extras of provider-notes.md (§2 payout, §4 issuing, §5 profit share). */
const PROVIDER_NOTES_PATHS = [
  "/payout/api/v1/acct/queryPaymentMethods",
  "/payout/api/v1/beneficiary/queryDetail",
  "/payout/api/v1/beneficiary/queryList",
  "/payout/api/v1/acct/queryAcctCurrency",
  "/api/v1/merchant/card/createCard",
  "/api/v1/merchant/card/deposit",
  "/profit/query",
];

describe("endpoint table", () => {
  const paths = endpoints.map(originPath);

  it("holds every endpoint of the contract and of the provider notes, and nothing else", () => {
    expect([...paths].sort()).toEqual([...CONTRACT_PATHS, ...PROVIDER_NOTES_PATHS].sort());
  });

  it("has one entry per path and unique names", () => {
    expect(new Set(paths).size).toBe(paths.length);
    expect(new Set(endpoints.map((e) => e.name)).size).toBe(endpoints.length);
  });

  it("finds an endpoint by its origin path", () => {
    expect(findEndpoint("/api/v1/merchant/card/operate")?.name).toBe("issuing.card.operate");
    expect(findEndpoint("/nope")).toBeUndefined();
  });

  it("declares auth and retry semantics consistently per area", () => {
    const authByArea = {
      payout: "sign",
      profitShare: "sign",
      issuing: "issuingApiKey",
      account: "accountApiKey",
    };
    for (const e of endpoints) {
      expect(e.auth, e.name).toBe(authByArea[e.area]);
      if (e.idempotencyKey) expect(e.idempotencyKey.maxLength, e.name).toBeGreaterThan(0);
      if (e.auth === "sign") expect(e.merchantNo, e.name).toBe(true);
    }
  });
});

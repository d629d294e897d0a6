import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type RunningSandbox, startSandbox } from "../start-sandbox";
import { adminCall, beneficiary, ok, payer, signedPost } from "../testing/signed-http";

const P = "/payout/api/v1";
let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ reviewDelayMs: 5_000, settleDelayMs: 2_000 });
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  await sandbox.admin.reset();
  await sandbox.admin.freezeClock(Date.UTC(2026, 5, 22, 10, 0, 0));
});

const post = (path: string, fields: Record<string, unknown>) =>
  signedPost(sandbox.url, `${P}${path}`, fields);

describe("payout admin routes", () => {
  it("forces a review outcome and a payout failure, with the refund posting", async () => {
    const added = await ok<{ beneficiaryId: string }>(post("/beneficiary/add", beneficiary));
    const forced = await adminCall(
      sandbox.url,
      "POST",
      `/payout/beneficiaries/${added.beneficiaryId}/review`,
      { outcome: "REJECT", reason: "name mismatch" },
    );
    expect(forced.status).toBe(200);
    expect(forced.body.beneficiary).toMatchObject({
      payeeStatus: "REJECT",
      rejectReason: "name mismatch",
    });
    await sandbox.admin.advanceClock(5_000); // the scheduled review must not override it
    const detail = await ok<Record<string, string>>(
      post("/beneficiary/queryDetail", { beneficiaryId: added.beneficiaryId }),
    );
    expect(detail.payeeStatus).toBe("REJECT");
    expect(
      (
        await adminCall(
          sandbox.url,
          "POST",
          `/payout/beneficiaries/${added.beneficiaryId}/review`,
          { outcome: "MAYBE" },
        )
      ).status,
    ).toBe(400);
    expect(
      (await adminCall(sandbox.url, "POST", "/payout/beneficiaries/1/review", { outcome: "PASS" }))
        .status,
    ).toBe(404);
    await adminCall(sandbox.url, "POST", `/payout/beneficiaries/${added.beneficiaryId}/review`, {
      outcome: "PASS",
    });

    const payerId = await ok<string>(post("/acct/addPayer", payer));
    const p = await ok<Record<string, string>>(
      post("/txn/remittance", {
        beneficiaryId: added.beneficiaryId,
        payerId,
        targetAmount: "50.00",
        sourceCurrency: "EUR",
        targetCurrency: "USD",
        requestId: "r-f",
        transactionPurpose: "refund",
        chargeFlag: "Y",
      }),
    );
    const settled = await adminCall(sandbox.url, "POST", `/payout/payouts/${p.payoutId}/settle`, {
      outcome: "F",
      errorCode: "BANK_DOWN",
      errorMsg: "bank offline",
    });
    expect(settled.body.payout).toMatchObject({
      payoutStatus: "F",
      errorCode: "BANK_DOWN",
      errorMsg: "bank offline",
    });
    expect(
      (
        await adminCall(sandbox.url, "POST", `/payout/payouts/${p.payoutId}/settle`, {
          outcome: "S",
        })
      ).status,
    ).toBe(409);
    await sandbox.admin.advanceClock(2_000); // the scheduled settlement does nothing now
    expect(
      (await ok<Record<string, string>>(post("/txn/query", { requestId: "r-f" }))).payoutStatus,
    ).toBe("F");
    const state = await sandbox.admin.state();
    const postings = state.ledger.transactions.filter((t) => t.serviceId === p.payoutId);
    // 50.00 USD at 1.08479401 USD per EUR: 46.10 EUR (rounded up) + 0.97 EUR fee.
    expect(postings.map((t) => [t.businessType, t.amount])).toEqual([
      ["PAYOUT", "-46.10"],
      ["FEE", "-0.97"],
      ["PAYOUT_REFUND", "47.07"],
    ]);
    expect(state.ledger.balances.EUR).toBe("500000.00");
  });

  it("lists templates and pricing", async () => {
    const templates = await adminCall(sandbox.url, "GET", "/payout/templates");
    const routes = templates.body.routes as { bankCountry: string; paymentMethod: string }[];
    expect(routes.some((r) => r.bankCountry === "PH" && r.paymentMethod === "CASH_PICKUP")).toBe(
      true,
    );
    const pricing = await adminCall(sandbox.url, "GET", "/payout/pricing");
    expect(pricing.body).toMatchObject({ rateScale: 8, unitsPerUsd: { PHP: "56.412378" } });
  });
});

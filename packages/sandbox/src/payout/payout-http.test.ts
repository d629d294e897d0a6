import {
  type JsonNumber,
  jsonNumber,
  parseJson,
  stringifyJson,
  verifySign,
} from "@merchantkit/core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type RunningSandbox, startSandbox } from "../start-sandbox";
import { beneficiary, ok, payer, signedPost } from "../testing/signed-http";

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

describe("the four-phase payout flow over HTTP", () => {
  it("fields → add → review → remittance → settle → query → voucher, with ledger, account area and notifications", async () => {
    // 1. pre-setup
    const fields = await ok<{ accountInfomation: Record<string, string> }>(
      post("/acct/queryPaymentFeild", {
        bankCountry: "US",
        payoutCurrency: "USD",
        entityType: "1",
        paymentMethod: "LOCAL",
      }),
    );
    expect(fields.accountInfomation.cardNumber).toBe("Y");
    // 2. initiation
    const added = await ok<{ beneficiaryId: string; payeeStatus: string }>(
      post("/beneficiary/add", beneficiary),
    );
    expect(added.payeeStatus).toBe("WAITING");
    // The raw answer carries the id digit for digit (a string on the payout wire).
    const payerId = await ok<string>(post("/acct/addPayer", payer));
    expect(payerId).toMatch(/^\d{19}$/);
    await sandbox.admin.advanceClock(5_000);
    const detail = await ok<Record<string, unknown>>(
      post("/beneficiary/queryDetail", { beneficiaryId: added.beneficiaryId }),
    );
    expect(detail).toMatchObject({ payeeStatus: "PASS", beneficiaryId: added.beneficiaryId });
    expect(parseJson(detail.receiverInfo as string)).toEqual({
      firstName: "Ada",
      lastName: "Lovelace",
    });

    const request = {
      beneficiaryId: added.beneficiaryId,
      payerId,
      sourceAmount: "100.00",
      sourceCurrency: "USD",
      targetCurrency: "USD",
      requestId: "r-http-1",
      transactionPurpose: "salary",
      chargeFlag: "N",
    };
    const accepted = await ok<Record<string, string>>(post("/txn/remittance", request));
    expect(accepted).toMatchObject({
      payoutStatus: "P",
      sourceAmount: "100.00",
      fee: "1.10",
      targetAmount: "98.90",
      createTime: "2026-06-22 10:00:05",
    });
    // The server replays an identical repeat: same payout, no second debit.
    const again = await ok<Record<string, string>>(post("/txn/remittance", request));
    expect(again.payoutId).toBe(accepted.payoutId);
    const changed = await post("/txn/remittance", { ...request, sourceAmount: "5.00" });
    expect(changed.respCode).toBe("40900");

    // 3. result
    expect(
      (await ok<Record<string, string>>(post("/txn/query", { requestId: "r-http-1" })))
        .payoutStatus,
    ).toBe("P");
    await sandbox.admin.advanceClock(2_000);
    const done = await ok<Record<string, string>>(
      post("/txn/query", { payoutId: accepted.payoutId }),
    );
    expect(done).toMatchObject({ payoutStatus: "S", finishTime: "2026-06-22 10:00:07" });

    // 4. completion
    const voucher = await ok<Record<string, string>>(
      post("/txn/queryVoucher", { requestId: "r-http-1" }),
    );
    expect(voucher.fileType).toBe("pdf");
    const link = (voucher.voucherUrl as string).startsWith("http")
      ? voucher.voucherUrl
      : `${sandbox.url}${voucher.voucherUrl}`;
    const file = await fetch(link as string);
    expect(file.headers.get("content-type")).toBe("application/pdf");
    const bytes = Buffer.from(await file.arrayBuffer());
    expect(bytes.toString("base64")).toBe(voucher.content);

    // Ledger postings, read back through the account area by serviceId = payoutId.
    const state = await sandbox.admin.state();
    const postings = state.ledger.transactions.filter((t) => t.serviceId === accepted.payoutId);
    expect(postings.map((t) => [t.businessType, t.amount, t.currency])).toEqual([
      ["PAYOUT", "-98.90", "USD"],
      ["FEE", "-1.10", "USD"],
    ]);
    expect(state.ledger.balances.USD).toBe("999900.00");
    // The same postings through the account area, serviceIds as bare 64-bit JSON numbers.
    const config = sandbox.runtime().config;
    const accountAnswer = await fetch(
      `${sandbox.url}/account-server/api/v2/account/transactions/service/query`,
      {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          apikey: config.accountApiKey,
          "x-timestamp": String((await sandbox.admin.clock()).now),
        },
        body: stringifyJson({
          requestId: "acct-1",
          serviceIds: [jsonNumber(accepted.payoutId as string)],
        }),
      },
    );
    const accountBody = parseJson(await accountAnswer.text()) as unknown as {
      respCode: string;
      data: { list: { serviceId: JsonNumber; amount: string; businessType: string }[] };
    };
    expect(accountBody.respCode).toBe("20000");
    expect(accountBody.data.list.map((t) => [t.serviceId.text, t.businessType, t.amount])).toEqual([
      [accepted.payoutId, "PAYOUT", "-98.90"],
      [accepted.payoutId, "FEE", "-1.10"],
    ]);
    const balances = await ok<Record<string, string>[]>(
      post("/acct/queryAcctCurrency", { currency: "USD" }),
    );
    expect(balances).toEqual([
      {
        currency: "USD",
        availableBalance: "999900.00",
        frozenBalance: "0.00",
        totalBalance: "999900.00",
      },
    ]);
    const payouts = (state.areas.payout as { payouts: Record<string, unknown>[] }).payouts;
    expect(payouts).toHaveLength(1);

    // Notifications: P then S, each signed over every other field.
    const deliveries = (await sandbox.admin.deliveries()).filter((d) => d.kind === "payout");
    expect(deliveries.map((d) => d.requestId)).toEqual(["r-http-1", "r-http-1"]);
    const bodies = deliveries.map((d) => parseJson(d.body) as Record<string, unknown>);
    expect(bodies.map((b) => b.status)).toEqual(["processing", "success"]);
    expect(bodies.every((b) => verifySign(b, sandbox.runtime().config.secretKey))).toBe(true);
  });

  it("list and errors over HTTP: duplicate add 40901, unknown 40400, 42201, payer size -1, queryList window", async () => {
    await ok(post("/beneficiary/add", beneficiary));
    const dup = await post("/beneficiary/add", { ...beneficiary, merchantRefId: "other" });
    expect([dup.respCode, dup.respMsg]).toEqual(["40901", "beneficiary already exists"]);
    const found = await ok<{ records: { beneficiaryId: string }[]; total: number }>(
      post("/beneficiary/queryList", { cardNumber: "000123456789", size: 10, current: 1 }),
    );
    expect(found.total).toBe(1);
    expect(
      (await post("/beneficiary/queryDetail", { beneficiaryId: "1953712585351400000" })).respCode,
    ).toBe("40400");
    expect(
      (
        await post("/acct/queryPaymentFeild", {
          bankCountry: "FR",
          payoutCurrency: "EUR",
          entityType: "1",
          paymentMethod: "LOCAL",
        })
      ).respCode,
    ).toBe("42201");
    const missing = await post("/beneficiary/add", {
      ...beneficiary,
      accountInfomation: stringifyJson({ cardNumber: "1" }),
    });
    expect(missing.respCode).toBe("40000");
    expect(missing.respMsg).toContain("accountInfomation.accountType");
    for (let i = 0; i < 3; i++) await ok(post("/acct/addPayer", { ...payer, lastName: `H${i}` }));
    const all = await ok<{ records: unknown[]; total: number; size: number }>(
      post("/acct/queryPayer", { size: -1, current: 1 }),
    );
    expect([all.records.length, all.total, all.size]).toEqual([3, 3, -1]);
    const list = await ok<{ records: unknown[]; total: number }>(
      post("/txn/queryList", {
        createTimeStartTime: "2026-06-22 00:00:00",
        createTimeEndTime: "2026-06-22 23:59:59",
        size: 10,
        current: 1,
      }),
    );
    expect(list.total).toBe(0);
    expect((await post("/txn/query", { requestId: "none" })).respCode).toBe("40402");
  });
});

import {
  acctAddPayer,
  acctQueryAcctCurrency,
  acctQueryPaymentFeild,
  beneficiaryAdd,
  txnQuery,
  txnQueryVoucher,
  txnRemittance,
} from "@merchantkit/contract";
import { describe, expect, it } from "vitest";
import { errorOf } from "../testing/area-runtime";
import { individualPayer, phWallet, usLocalPerson } from "../testing/payout-fixtures";
import { passed, remittance, setup } from "../testing/payout-testbed";

describe("the four-phase payout flow, handler level", () => {
  it("fields → beneficiary → PASS → remittance P → S → query → voucher, with exact postings", () => {
    const { call, advance, runtime, pushes, payerId } = setup();
    // 1. pre-setup
    const fields = call(acctQueryPaymentFeild, {
      bankCountry: "US",
      payoutCurrency: "USD",
      entityType: "1",
      paymentMethod: "LOCAL",
    });
    expect(fields.accountInfomation.cardNumber).toBe("Y");
    // 2. initiation
    const { beneficiaryId, payeeStatus } = call(beneficiaryAdd, usLocalPerson());
    expect(payeeStatus).toBe("WAITING");
    expect(
      errorOf(() =>
        call(txnRemittance, remittance({ beneficiaryId, payerId, requestId: "r-early" })),
      ).code,
    ).toBe("42200");
    advance(5_000);
    const accepted = call(
      txnRemittance,
      remittance({ beneficiaryId, payerId, requestId: "r-1", reference: "INV-1" }),
    );
    expect(accepted).toEqual({
      payoutId: accepted.payoutId,
      requestId: "r-1",
      payoutStatus: "P",
      payoutMethod: "LOCAL",
      merchantNo: "M1000001",
      beneficiaryId,
      payerId,
      sourceAmount: "100.00",
      sourceCurrency: "USD",
      targetAmount: "98.90",
      targetCurrency: "USD",
      fee: "1.10",
      feeCurrency: "USD",
      exchangeRate: "1.00000000",
      chargeFlag: "N",
      reference: "INV-1",
      transactionPurpose: "salary",
      createTime: "2026-06-22 10:00:05",
    });
    expect(accepted.payoutId).toMatch(/^\d{19}$/);
    const postings = runtime.ledger.byServiceId(accepted.payoutId);
    expect(postings.map((p) => [p.businessType, p.amount, p.currency, p.externalOrderId])).toEqual([
      ["PAYOUT", "-98.90", "USD", "r-1"],
      ["FEE", "-1.10", "USD", "r-1"],
    ]);
    expect(runtime.ledger.balance("USD")).toBe("999900.00");
    expect(call(acctQueryAcctCurrency, { currency: "USD" })).toEqual([
      {
        currency: "USD",
        availableBalance: "999900.00",
        frozenBalance: "100.00",
        totalBalance: "1000000.00",
      },
    ]);
    expect(pushes.payout).toHaveLength(1);
    expect(pushes.payout[0]).toMatchObject({
      payoutId: accepted.payoutId,
      requestId: "r-1",
      payoutStatus: "P",
      status: "processing",
    });
    expect(errorOf(() => call(txnQueryVoucher, { payoutId: accepted.payoutId })).code).toBe(
      "42203",
    );
    // 3. result
    advance(1_999);
    expect(call(txnQuery, { requestId: "r-1" }).payoutStatus).toBe("P");
    advance(1);
    const done = call(txnQuery, { payoutId: accepted.payoutId });
    expect(done).toMatchObject({ payoutStatus: "S", finishTime: "2026-06-22 10:00:07" });
    expect(done.errorCode).toBeUndefined();
    expect(pushes.payout).toHaveLength(2);
    expect(pushes.payout[1]).toEqual({
      merchantNo: "M1000001",
      payoutId: accepted.payoutId,
      requestId: "r-1",
      payoutStatus: "S",
      status: "success",
      beneficiaryId,
      sourceAmount: "100.00",
      sourceCurrency: "USD",
      targetAmount: "98.90",
      targetCurrency: "USD",
      fee: "1.10",
      feeCurrency: "USD",
      finishTime: "2026-06-22 10:00:07",
    });
    expect(call(acctQueryAcctCurrency, {})[0]?.currency).toBe("EUR");
    expect(call(acctQueryAcctCurrency, { currency: "USD" })[0]).toMatchObject({
      availableBalance: "999900.00",
      frozenBalance: "0.00",
    });
    // 4. completion
    const voucher = call(txnQueryVoucher, { requestId: "r-1", payoutId: accepted.payoutId });
    expect(voucher).toMatchObject({
      payoutId: accepted.payoutId,
      requestId: "r-1",
      fileType: "pdf",
      fileName: `voucher-${accepted.payoutId}.pdf`,
      voucherUrl: `/__sandbox/payout/vouchers/voucher-${accepted.payoutId}.pdf`,
    });
    const pdf = Buffer.from(voucher.content ?? "", "base64").toString("latin1");
    expect(pdf.startsWith("%PDF-1.4")).toBe(true);
    expect(pdf).toContain(`payoutId: ${accepted.payoutId}`);
    expect(runtime.ledger.byServiceId(accepted.payoutId)).toHaveLength(2);
  });
});

describe("failure path", () => {
  it("reference 'fail' ends F with errorCode/errorMsg and one PAYOUT_REFUND credit of the whole debit", () => {
    const { call, advance, runtime, pushes, beneficiaryId, payerId } = passed();
    const p = call(
      txnRemittance,
      remittance({ beneficiaryId, payerId, requestId: "f1", reference: "FAIL" }),
    );
    advance(2_000);
    const done = call(txnQuery, { requestId: "f1" });
    expect(done).toMatchObject({
      payoutStatus: "F",
      errorCode: "PAYOUT_REJECTED",
      finishTime: "2026-06-22 10:00:07",
    });
    expect(done.errorMsg).toMatch(/reference fail/);
    expect(runtime.ledger.byServiceId(p.payoutId).map((t) => [t.businessType, t.amount])).toEqual([
      ["PAYOUT", "-98.90"],
      ["FEE", "-1.10"],
      ["PAYOUT_REFUND", "100.00"],
    ]);
    expect(runtime.ledger.balance("USD")).toBe("1000000.00");
    expect(pushes.payout.map((n) => n.status)).toEqual(["processing", "failure"]);
    expect(pushes.payout[1]).toMatchObject({ payoutStatus: "F", errorCode: "PAYOUT_REJECTED" });
    expect(errorOf(() => call(txnQueryVoucher, { requestId: "f1" })).code).toBe("42203");
  });

  it("a targetAmount ending in .13 fails with ACCOUNT_CLOSED", () => {
    const { call, advance, beneficiaryId, payerId } = passed();
    call(
      txnRemittance,
      remittance({
        beneficiaryId,
        payerId,
        requestId: "f2",
        chargeFlag: "Y",
        targetAmount: "10.13",
      }),
    );
    advance(2_000);
    expect(call(txnQuery, { requestId: "f2" })).toMatchObject({
      payoutStatus: "F",
      errorCode: "ACCOUNT_CLOSED",
    });
  });
});

describe("child merchants", () => {
  it("start with an empty account of their own: no balances and 42202 on remittance", () => {
    const { call, advance } = setup();
    const payerId = call(acctAddPayer, { ...individualPayer(), merchantNo: "M1000002" });
    const { beneficiaryId } = call(beneficiaryAdd, { ...phWallet(), merchantNo: "M1000002" });
    advance(1);
    expect(call(acctQueryAcctCurrency, { merchantNo: "M1000002" })).toEqual([]);
    expect(
      errorOf(() =>
        call(
          txnRemittance,
          remittance({
            merchantNo: "M1000002",
            beneficiaryId,
            payerId,
            requestId: "c1",
            targetCurrency: "PHP",
          }),
        ),
      ),
    ).toEqual({
      code: "42202",
      message: "insufficient USD balance: 0.00 available, 100.00 needed",
    });
  });

  it("pay out from their own account, which the parent's does not share", () => {
    const { call, advance, runtime } = setup();
    const payerId = call(acctAddPayer, { ...individualPayer(), merchantNo: "M1000002" });
    const { beneficiaryId } = call(beneficiaryAdd, { ...phWallet(), merchantNo: "M1000002" });
    advance(1);
    const child = runtime.ledgers.of("M1000002");
    child?.credit({
      serviceId: "7",
      currency: "USD",
      amount: "500.00",
      businessType: "COLLECTION",
      at: 0,
    });
    const parentUsd = runtime.ledger.balance("USD");
    const accepted = call(
      txnRemittance,
      remittance({
        merchantNo: "M1000002",
        beneficiaryId,
        payerId,
        requestId: "c2",
        targetCurrency: "PHP",
      }),
    );
    const debits = child?.byServiceId(accepted.payoutId) ?? [];
    expect(debits.map((t) => t.businessType)).toContain("PAYOUT");
    expect(runtime.ledger.byServiceId(accepted.payoutId)).toEqual([]);
    expect(runtime.ledger.balance("USD")).toBe(parentUsd);
    const [usd] = call(acctQueryAcctCurrency, { merchantNo: "M1000002" });
    expect(usd?.currency).toBe("USD");
    expect(child?.balance("USD")).not.toBe("500.00");
  });
});

import { beneficiaryAdd, txnRemittance } from "@merchantkit/contract";
import { describe, expect, it } from "vitest";
import { errorOf } from "../testing/area-runtime";
import {
  individualPayer,
  phWallet,
  usLocalPerson,
  usSwiftCompany,
} from "../testing/payout-fixtures";
import { passed, remittance, setup } from "../testing/payout-testbed";

describe("txn/remittance checks", () => {
  it("40400 unknown beneficiary; 42200 for WAITING, PROCESS and REJECT", () => {
    const { call, advance, payerId } = setup();
    expect(
      errorOf(() =>
        call(
          txnRemittance,
          remittance({ beneficiaryId: "1953712585351400000", payerId, requestId: "a" }),
        ),
      ).code,
    ).toBe("40400");
    const waiting = call(beneficiaryAdd, usLocalPerson()).beneficiaryId;
    const rejected = call(
      beneficiaryAdd,
      usLocalPerson({
        receiverInfo: { firstName: "X", lastName: "REJECT" },
        accountInfomation: { ...usLocalPerson().accountInfomation, cardNumber: "9" },
      }),
    ).beneficiaryId;
    expect(
      errorOf(() =>
        call(txnRemittance, remittance({ beneficiaryId: waiting, payerId, requestId: "b" })),
      ),
    ).toEqual({
      code: "42200",
      message: "beneficiary payeeStatus is WAITING; a payout needs PASS or UNNECESSARY",
    });
    advance(2_500);
    expect(
      errorOf(() =>
        call(txnRemittance, remittance({ beneficiaryId: waiting, payerId, requestId: "c" })),
      ).message,
    ).toMatch(/PROCESS/);
    advance(2_500);
    expect(
      errorOf(() =>
        call(txnRemittance, remittance({ beneficiaryId: rejected, payerId, requestId: "d" })),
      ).message,
    ).toMatch(/REJECT/);
    expect(
      call(txnRemittance, remittance({ beneficiaryId: waiting, payerId, requestId: "e" }))
        .payoutStatus,
    ).toBe("P");
  });

  it("UNNECESSARY beneficiaries are payable at once", () => {
    const { call, payerId } = setup();
    const wallet = call(beneficiaryAdd, phWallet()).beneficiaryId;
    const p = call(
      txnRemittance,
      remittance({ beneficiaryId: wallet, payerId, requestId: "w", targetCurrency: "PHP" }),
    );
    expect(p).toMatchObject({
      payoutStatus: "P",
      payoutMethod: "E_WALLET",
      sourceAmount: "100.00",
      fee: "1.00",
      targetAmount: "5584.82",
      exchangeRate: "56.41237800",
    });
  });

  it("SWIFT needs feeBearing (40000, via the contract's helper); OUR costs more than SHA", () => {
    const { call, beneficiaryId, payerId } = passed(usSwiftCompany());
    const base = remittance({
      beneficiaryId,
      payerId,
      chargeFlag: "Y",
      targetAmount: "100.00",
      sourceAmount: undefined,
    });
    expect(errorOf(() => call(txnRemittance, { ...base, requestId: "s0" }))).toEqual({
      code: "40000",
      message: "feeBearing is required when the beneficiary's paymentMethod is SWIFT",
    });
    expect(call(txnRemittance, { ...base, requestId: "s1", feeBearing: "SHA" })).toMatchObject({
      fee: "15.00",
      sourceAmount: "115.00",
      targetAmount: "100.00",
      feeBearing: "SHA",
    });
    expect(call(txnRemittance, { ...base, requestId: "s2", feeBearing: "OUR" })).toMatchObject({
      fee: "25.00",
      sourceAmount: "125.00",
    });
  });

  it("40401 for an unknown payer; payerDetail instead of payerId is accepted", () => {
    const { call, beneficiaryId } = passed();
    expect(
      errorOf(() =>
        call(
          txnRemittance,
          remittance({ beneficiaryId, payerId: "1953712585351400001", requestId: "p1" }),
        ),
      ),
    ).toEqual({ code: "40401", message: "payer not found" });
    const p = call(
      txnRemittance,
      remittance({ beneficiaryId, payerDetail: individualPayer(), requestId: "p2" }),
    );
    expect(p.payoutStatus).toBe("P");
    expect(p.payerId).toBeUndefined();
  });

  it("40000 when targetCurrency is not the beneficiary's, the source currency is not traded, or the fee eats the amount", () => {
    const { call, beneficiaryId, payerId } = passed();
    expect(
      errorOf(() =>
        call(
          txnRemittance,
          remittance({ beneficiaryId, payerId, requestId: "x1", targetCurrency: "EUR" }),
        ),
      ).message,
    ).toBe("targetCurrency must be the beneficiary's payoutCurrency USD, not EUR");
    expect(
      errorOf(() =>
        call(
          txnRemittance,
          remittance({ beneficiaryId, payerId, requestId: "x2", sourceCurrency: "JPY" }),
        ),
      ).code,
    ).toBe("40000");
    expect(
      errorOf(() =>
        call(
          txnRemittance,
          remittance({ beneficiaryId, payerId, requestId: "x3", sourceAmount: "1.00" }),
        ),
      ),
    ).toEqual({
      code: "40000",
      message: "sourceAmount 1.00 does not cover the fee 1.00 USD",
    });
  });

  it("42202 when the balance does not cover principal + fee; nothing is posted", () => {
    const { call, beneficiaryId, payerId, runtime } = passed(usLocalPerson(), { USD: "100.00" });
    // chargeFlag Y: 100.00 target + 1.10 fee = 101.10 > 100.00
    expect(
      errorOf(() =>
        call(
          txnRemittance,
          remittance({
            beneficiaryId,
            payerId,
            requestId: "i1",
            chargeFlag: "Y",
            targetAmount: "100.00",
          }),
        ),
      ),
    ).toEqual({
      code: "42202",
      message: "insufficient USD balance: 100.00 available, 101.10 needed",
    });
    expect(
      errorOf(() =>
        call(
          txnRemittance,
          remittance({ beneficiaryId, payerId, requestId: "i2", sourceCurrency: "EUR" }),
        ),
      ).code,
    ).toBe("42202");
    expect(runtime.ledger.transactions).toHaveLength(0);
    // exactly the balance is enough
    expect(
      call(txnRemittance, remittance({ beneficiaryId, payerId, requestId: "i3" })).sourceAmount,
    ).toBe("100.00");
    expect(runtime.ledger.balance("USD")).toBe("0.00");
  });

  it("40900 for a requestId already used by this merchant (the server replays identical repeats before this)", () => {
    const { call, beneficiaryId, payerId } = passed();
    call(txnRemittance, remittance({ beneficiaryId, payerId, requestId: "dup" }));
    expect(
      errorOf(() =>
        call(
          txnRemittance,
          remittance({ beneficiaryId, payerId, requestId: "dup", sourceAmount: "5.00" }),
        ),
      ).code,
    ).toBe("40900");
  });
});

describe("FX and fees through txn/remittance", () => {
  it("chargeFlag Y from SGD: the beneficiary gets targetAmount in full; the debit is principal + fee", () => {
    const { call, runtime, payerId } = setup();
    const wallet = call(beneficiaryAdd, phWallet()).beneficiaryId;
    const p = call(
      txnRemittance,
      remittance({
        beneficiaryId: wallet,
        payerId,
        requestId: "fx-y",
        chargeFlag: "Y",
        targetAmount: "5000",
        sourceAmount: "1.00",
        sourceCurrency: "SGD",
        targetCurrency: "PHP",
      }),
    );
    expect(p).toMatchObject({
      sourceAmount: "120.55",
      fee: "1.27",
      feeCurrency: "SGD",
      targetAmount: "5000.00",
      exchangeRate: "41.91987926",
      chargeFlag: "Y",
    });
    expect(
      runtime.ledger.byServiceId(p.payoutId).map((t) => [t.businessType, t.amount, t.currency]),
    ).toEqual([
      ["PAYOUT", "-119.28", "SGD"],
      ["FEE", "-1.27", "SGD"],
    ]);
    expect(runtime.ledger.balance("SGD")).toBe("499879.45");
  });

  it("chargeFlag N from SGD: 100.00 at 41.91987926 with a 1.17 fee delivers 4142.94", () => {
    const { call, runtime, payerId } = setup();
    const wallet = call(beneficiaryAdd, phWallet()).beneficiaryId;
    const p = call(
      txnRemittance,
      remittance({
        beneficiaryId: wallet,
        payerId,
        requestId: "fx-n",
        sourceCurrency: "SGD",
        targetCurrency: "PHP",
      }),
    );
    expect(p).toMatchObject({
      sourceAmount: "100.00",
      fee: "1.17",
      targetAmount: "4142.94",
      exchangeRate: "41.91987926",
    });
    expect(runtime.ledger.byServiceId(p.payoutId).map((t) => t.amount)).toEqual([
      "-98.83",
      "-1.17",
    ]);
  });
});

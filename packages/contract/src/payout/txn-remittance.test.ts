import { parseJson, stringifyJson } from "@merchantkit/core";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { remittanceFeeBearingProblem, txnRemittance } from "./txn-remittance";

const base = {
  merchantNo: "800209",
  beneficiaryId: "1953712585351499776",
  payerId: "1953712585351499777",
  sourceCurrency: "USD",
  targetCurrency: "PHP",
  targetAmount: "100.10",
  requestId: "req-1",
  transactionPurpose: "salary",
  chargeFlag: "Y",
} as const;

const ok = (params: object) => v.safeParse(txnRemittance.request, params).success;

describe("payout txn/remittance", () => {
  it("is a write keyed by requestId (at most 32) with merchantNo filled by the transport", () => {
    expect(txnRemittance.name).toBe("payout.txn.remittance");
    expect(txnRemittance.path).toBe("/api/v1/txn/remittance");
    expect(txnRemittance.kind).toBe("write");
    expect(txnRemittance.idempotencyKey).toEqual({ field: "requestId", maxLength: 32 });
    expect(txnRemittance.merchantNo).toBe(true);
  });

  it("sends amounts and ids as strings, digit for digit", () => {
    const wire = v.parse(txnRemittance.request, base);
    expect(stringifyJson(wire)).toBe(
      '{"merchantNo":"800209","beneficiaryId":"1953712585351499776","payerId":"1953712585351499777","sourceCurrency":"USD","targetAmount":"100.10","targetCurrency":"PHP","requestId":"req-1","transactionPurpose":"salary","chargeFlag":"Y"}',
    );
  });

  it("needs exactly one of payerId and payerDetail", () => {
    const { payerId: _, ...neither } = base;
    const payerDetail = { subEntityType: "1", country: "SG", firstName: "Ann", lastName: "Lee" };
    expect(ok(neither)).toBe(false);
    expect(ok({ ...base, payerDetail })).toBe(false);
    expect(ok(base)).toBe(true);
    expect(ok({ ...neither, payerDetail })).toBe(true);
  });

  it("sends payerDetail as JSON text and reads it back as an object", () => {
    const { payerId: _, ...neither } = base;
    const payerDetail = { subEntityType: "0", country: "SG", companyNameEn: "Acme Pte Ltd" };
    const wire = v.parse(txnRemittance.request, { ...neither, payerDetail });
    expect(wire.payerDetail).toBe(
      '{"subEntityType":"0","country":"SG","companyNameEn":"Acme Pte Ltd"}',
    );
    const back = v.parse(txnRemittance.requestCodec.decode, parseJson(stringifyJson(wire)));
    expect(back.payerDetail).toEqual(payerDetail);
    // The payer's own rules hold inside the JSON text too.
    expect(ok({ ...neither, payerDetail: { subEntityType: "0", country: "SG" } })).toBe(false);
  });

  it("needs sourceAmount when chargeFlag is N and targetAmount when it is Y", () => {
    const { targetAmount: _, ...noAmounts } = base;
    expect(ok({ ...noAmounts, chargeFlag: "N" })).toBe(false);
    expect(ok({ ...noAmounts, chargeFlag: "N", sourceAmount: "10.00" })).toBe(true);
    expect(ok({ ...noAmounts, chargeFlag: "Y", sourceAmount: "10.00" })).toBe(false);
    expect(ok({ ...noAmounts, chargeFlag: "Y", targetAmount: "10.00" })).toBe(true);
    // An unknown flag (a future value) needs neither amount rule; the service decides.
    expect(ok({ ...base, chargeFlag: "X" })).toBe(true);
    expect(ok({ ...base, chargeFlag: "" })).toBe(false);
  });

  it("holds requestId to 32 characters", () => {
    expect(ok({ ...base, requestId: "x".repeat(32) })).toBe(true);
    expect(ok({ ...base, requestId: "x".repeat(33) })).toBe(false);
    expect(ok({ ...base, requestId: "" })).toBe(false);
  });

  it("takes amounts greater than 0 with at most 2 decimals and keeps their digits", () => {
    for (const bad of ["0", "-1", "1.001", "0.00", 0, -1, 1.5]) {
      expect(ok({ ...base, targetAmount: bad })).toBe(false);
    }
    for (const good of ["0.01", "100.10", "5"]) {
      const wire = v.parse(txnRemittance.request, { ...base, targetAmount: good });
      expect(wire.targetAmount).toBe(good);
    }
    expect(ok({ ...base, chargeFlag: "N", sourceAmount: "1.001" })).toBe(false);
  });

  it("holds currencies to three capitals and feeBearing to OUR or SHA", () => {
    expect(ok({ ...base, sourceCurrency: "usd" })).toBe(false);
    expect(ok({ ...base, feeBearing: "OUR" })).toBe(true);
    expect(ok({ ...base, feeBearing: "BEN" })).toBe(true); // open: a future value passes
    expect(ok({ ...base, feeBearing: "" })).toBe(false);
  });

  it("checks feeBearing against the beneficiary's method in one place", () => {
    expect(remittanceFeeBearingProblem({}, "SWIFT")).toMatch(/feeBearing is required/);
    expect(remittanceFeeBearingProblem({ feeBearing: "SHA" }, "SWIFT")).toBeUndefined();
    expect(remittanceFeeBearingProblem({}, "LOCAL")).toBeUndefined();
  });

  it("decodes a wire request for the sandbox with the same rules", () => {
    const body = parseJson(
      '{"merchantNo":"800209","beneficiaryId":"1953712585351499775","payerId":1953712585351499777,"sourceCurrency":"USD","targetCurrency":"PHP","sourceAmount":"0.10","requestId":"r","transactionPurpose":"p","chargeFlag":"N"}',
    );
    const app = v.parse(txnRemittance.requestCodec.decode, body);
    expect(app.payerId).toBe("1953712585351499777");
    expect(app.sourceAmount).toBe("0.10");
    const wrong = { ...(body as object), chargeFlag: "Y" };
    expect(v.safeParse(txnRemittance.requestCodec.decode, wrong).success).toBe(false);
    // null counts as absent, as the service reads it.
    const nulls = { ...(body as object), payerDetail: null, targetAmount: null };
    expect(v.safeParse(txnRemittance.requestCodec.decode, nulls).success).toBe(true);
  });

  it("reads the payout record with 64-bit ids and exact amounts", () => {
    const data = v.parse(
      txnRemittance.response,
      parseJson(
        '{"payoutId":1953712585351499776,"requestId":"req-1","payoutStatus":"P","sourceAmount":"5.30","targetAmount":100.10,"fee":"0.50","extra":1}',
      ),
    );
    expect(data.payoutId).toBe("1953712585351499776");
    expect(data.sourceAmount).toBe("5.30");
    expect(data.targetAmount).toBe("100.10");
    expect(data.fee).toBe("0.50");
    const wire = v.parse(txnRemittance.responseCodec.encode, {
      payoutId: "1953712585351499776",
      requestId: "req-1",
      payoutStatus: "S",
    });
    expect(stringifyJson(wire)).toBe(
      '{"payoutId":"1953712585351499776","requestId":"req-1","payoutStatus":"S"}',
    );
  });
});

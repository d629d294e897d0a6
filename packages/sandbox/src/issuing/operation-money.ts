/**
 * How card operations move money, in one place for the live lifecycle and the generator:
 * the fees of an operation and its postings on the merchant account. Every posting carries the
 * operation's operateRecordId as serviceId (the reconciler matches on it) and the
 * clientRequestId as externalOrderId.
 *
 * CREATE and DEPOSIT debit the merchant when the request is accepted (status P: the money is
 * held from then on) and give it back if the operation fails; RETURN and TERMINATE credit the
 * merchant when they succeed (S), since only then is the card balance known.
 */
import { fromMinorUnits } from "@merchantkit/core";
import type { AccountLedger } from "../runtime/account-ledger";
import type { Card, OperateFee, OperateRecord, OperateType } from "./issuing-records";
import { applyRate } from "./money-units";

export const BUSINESS_TYPE = {
  CREATE: "CARD_CREATE",
  DEPOSIT: "CARD_DEPOSIT",
  RETURN: "CARD_RETURN",
  FEE: "FEE",
  CREATE_REVERSAL: "CARD_CREATE_REVERSAL",
  DEPOSIT_REVERSAL: "CARD_DEPOSIT_REVERSAL",
  FEE_REVERSAL: "FEE_REVERSAL",
} as const;

/** The fees charged for an operation: card creation fee on CREATE, deposit fee on money in. */
export function operationFees(card: Card, type: OperateType, amountUnits: bigint): OperateFee[] {
  const terms = card.terms;
  const fees: OperateFee[] = [];
  if (type === "CREATE" && terms.creationFeeUnits > 0n) {
    fees.push({
      feeType: "CREATE",
      feeAmount: fromMinorUnits(terms.creationFeeUnits, terms.scale),
      feeCurrency: card.currency,
    });
  }
  if (type === "CREATE" || type === "DEPOSIT") {
    const fee = applyRate(amountUnits, terms.depositFee);
    if (fee > 0n) {
      fees.push({
        feeType: "DEPOSIT",
        feeAmount: fromMinorUnits(fee, terms.scale),
        feeCurrency: card.currency,
      });
    }
  }
  return fees;
}

/** Debits amount and fees for a CREATE or DEPOSIT that was just accepted. */
export function postCharge(ledger: AccountLedger, r: OperateRecord, at: number): void {
  if (r.amount === undefined) return;
  const base = { serviceId: r.operateRecordId, externalOrderId: r.clientRequestId, at };
  ledger.debit({
    ...base,
    currency: r.currency,
    amount: r.amount,
    businessType: r.type === "CREATE" ? BUSINESS_TYPE.CREATE : BUSINESS_TYPE.DEPOSIT,
    remark: r.type,
  });
  for (const fee of r.feeList) {
    ledger.debit({
      ...base,
      currency: fee.feeCurrency,
      amount: fee.feeAmount,
      businessType: BUSINESS_TYPE.FEE,
      remark: `${fee.feeType} fee`,
    });
  }
}

/** Gives back what postCharge took, when a CREATE or DEPOSIT fails. */
export function postChargeReversal(ledger: AccountLedger, r: OperateRecord, at: number): void {
  if (r.amount === undefined) return;
  const base = { serviceId: r.operateRecordId, externalOrderId: r.clientRequestId, at };
  ledger.credit({
    ...base,
    currency: r.currency,
    amount: r.amount,
    businessType:
      r.type === "CREATE" ? BUSINESS_TYPE.CREATE_REVERSAL : BUSINESS_TYPE.DEPOSIT_REVERSAL,
    remark: `${r.type} failed`,
  });
  for (const fee of r.feeList) {
    ledger.credit({
      ...base,
      currency: fee.feeCurrency,
      amount: fee.feeAmount,
      businessType: BUSINESS_TYPE.FEE_REVERSAL,
      remark: `${fee.feeType} fee returned`,
    });
  }
}

/** Credits the merchant with card balance coming back (RETURN, or TERMINATE's remainder). */
export function postReturn(ledger: AccountLedger, r: OperateRecord, amount: string, at: number) {
  ledger.credit({
    serviceId: r.operateRecordId,
    externalOrderId: r.clientRequestId,
    currency: r.currency,
    amount,
    businessType: BUSINESS_TYPE.RETURN,
    remark: r.type,
    at,
  });
}

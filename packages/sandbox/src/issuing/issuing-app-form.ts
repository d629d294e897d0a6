/**
 * Issuing records in app form, exactly the fields of the contract's record codecs (their encode
 * side is strict: an extra key would fail), for responses, events and the ground-truth dump.
 * Unset optional values are left out: the codecs encode absence, not null.
 */

import type {
  AppOf,
  cardholder,
  cardOperateRecord,
  cardTransactionRecord,
  threeDsNotifyRecord,
} from "@merchantkit/contract";
import { fromMinorUnits } from "@merchantkit/core";
import {
  authorizationCodeOf,
  type Card,
  type Cardholder,
  type CardTxn,
  type OperateRecord,
  type ThreeDsRecord,
} from "./issuing-records";

/** Copies the keys whose value is defined. */
function defined<T extends Record<string, unknown>>(value: T): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = v;
  return out as T;
}

export function cardholderApp(h: Cardholder): AppOf<typeof cardholder> {
  const { merchantNo: _, ...fields } = h;
  return defined(fields);
}

export function cardApp(card: Card): Record<string, unknown> {
  return {
    cardId: card.cardId,
    cardholderId: card.cardholderId,
    merchantNo: card.merchantNo,
    productId: card.terms.product.productId,
    currency: card.currency,
    status: card.status,
    availableBalance: fromMinorUnits(card.available, card.terms.scale),
    createdAt: card.createdAt,
  };
}

/** The operate event's data: the record without the query-only operateTime. */
export function operateEventApp(r: OperateRecord): AppOf<typeof cardOperateRecord> {
  return defined({
    operateRecordId: r.operateRecordId,
    cardId: r.card.cardId,
    clientRequestId: r.clientRequestId,
    type: r.type,
    status: r.status,
    remark: r.remark,
    amount: r.amount,
    currency: r.currency,
    feeList: r.feeList.map((f) => ({ ...f })),
  });
}

export function operateRecordApp(r: OperateRecord): AppOf<typeof cardOperateRecord> {
  return { ...operateEventApp(r), operateTime: r.operateTime };
}

/**
 * Built field by field rather than through defined(): this runs for every record of every
 * page, and a page must stay cheap (no per-field arrays to allocate and collect).
 */
export function cardTxnApp(t: CardTxn): AppOf<typeof cardTransactionRecord> {
  const m = t.merchant;
  const out: AppOf<typeof cardTransactionRecord> = {
    txnType: t.txnType,
    txnStatus: t.txnStatus,
    txnOrderNo: t.txnOrderNo,
    cardId: t.card.cardId,
  };
  if (t.auth) out.originTxnOrderNo = t.auth.txnOrderNo;
  if (t.refundOf) out.originTxnOrderNoForRefund = t.refundOf.txnOrderNo;
  out.authTime = t.authTime;
  if (t.txnType !== "AUTHORIZATION" || t.txnStatus !== "F") {
    out.authorizationCode = authorizationCodeOf((t.auth ?? t).seq);
  }
  if (t.authMessageDesc !== undefined) out.authMessageDesc = t.authMessageDesc;
  out.transactionAmount = t.transactionAmount;
  out.transactionCurrency = t.transactionCurrency;
  out.transactionTime = t.transactionTime;
  out.cardAmount = t.cardAmount;
  out.cardCurrency = t.card.currency;
  if (t.txnStatus === "S") {
    out.settleAmount = t.cardAmount;
    out.settleCurrency = t.card.currency;
    out.settleTime = t.settleTime;
  }
  // Fees are charged in the card currency.
  if (t.transactionFee !== undefined) {
    out.transactionFee = t.transactionFee;
    out.transactionFeeCurrency = t.card.currency;
  }
  if (t.crossBorderFee !== undefined) {
    out.crossBorderFee = t.crossBorderFee;
    out.crossBorderFeeCurrency = t.card.currency;
  }
  if (t.exchangeFee !== undefined) {
    out.exchangeFee = t.exchangeFee;
    out.exchangeFeeCurrency = t.card.currency;
  }
  out.merchantId = m.merchantId;
  out.merchantName = m.merchantName;
  out.merchantCountry = m.merchantCountry;
  out.merchantCountryCode = m.merchantCountryCode;
  out.merchantStateProvince = m.merchantStateProvince;
  out.merchantCity = m.merchantCity;
  out.merchantPostalCode = m.merchantPostalCode;
  out.merchantMccCode = m.merchantMccCode;
  return out;
}

export function threeDsApp(r: ThreeDsRecord): AppOf<typeof threeDsNotifyRecord> {
  return {
    txnOrderNo: r.txnOrderNo,
    merchantNo: r.merchantNo,
    cardId: r.card.cardId,
    type: r.type,
    sendMethod: r.sendMethod,
    sendTarget: r.sendTarget,
    sendStatus: r.sendStatus,
    sendTime: r.sendTime,
    card3dsValues: r.card3dsValues,
    currency: r.currency,
    amount: r.amount,
    merchantName: r.merchantName,
  };
}

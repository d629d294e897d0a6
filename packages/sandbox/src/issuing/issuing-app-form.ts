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
 * One object literal with every field, absent ones undefined (which no JSON form writes):
 * this runs for every record of every page, and records of one shape keep the encoder's
 * property reads monomorphic, where records whose keys depend on type and status (fees,
 * settlement, origins) made them megamorphic.
 */
export function cardTxnApp(t: CardTxn): AppOf<typeof cardTransactionRecord> {
  const m = t.merchant;
  const currency = t.card.currency;
  const settled = t.txnStatus === "S";
  return {
    txnType: t.txnType,
    txnStatus: t.txnStatus,
    txnOrderNo: t.txnOrderNo,
    cardId: t.card.cardId,
    originTxnOrderNo: t.auth?.txnOrderNo,
    originTxnOrderNoForRefund: t.refundOf?.txnOrderNo,
    authTime: t.authTime,
    authorizationCode:
      t.txnType !== "AUTHORIZATION" || t.txnStatus !== "F"
        ? authorizationCodeOf((t.auth ?? t).seq)
        : undefined,
    authMessageDesc: t.authMessageDesc,
    transactionAmount: t.transactionAmount,
    transactionCurrency: t.transactionCurrency,
    transactionTime: t.transactionTime,
    cardAmount: t.cardAmount,
    cardCurrency: currency,
    settleAmount: settled ? t.cardAmount : undefined,
    settleCurrency: settled ? currency : undefined,
    settleTime: settled ? t.settleTime : undefined,
    // Fees are charged in the card currency.
    transactionFee: t.transactionFee,
    transactionFeeCurrency: t.transactionFee === undefined ? undefined : currency,
    crossBorderFee: t.crossBorderFee,
    crossBorderFeeCurrency: t.crossBorderFee === undefined ? undefined : currency,
    exchangeFee: t.exchangeFee,
    exchangeFeeCurrency: t.exchangeFee === undefined ? undefined : currency,
    merchantId: m.merchantId,
    merchantName: m.merchantName,
    merchantCountry: m.merchantCountry,
    merchantCountryCode: m.merchantCountryCode,
    merchantStateProvince: m.merchantStateProvince,
    merchantCity: m.merchantCity,
    merchantPostalCode: m.merchantPostalCode,
    merchantMccCode: m.merchantMccCode,
  };
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

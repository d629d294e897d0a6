/** Issuing response records: the paged result, cardholder, card operation, card transaction, 3DS. */
// biome-ignore lint/correctness/noUnusedImports: so the .d.ts says JsonNumber, not import("@merchantkit/core").JsonNumber, which the bundled .d.ts loses (scripts/check-pack.ts)
import type { JsonNumber } from "@merchantkit/core";

import type { AnyCodec } from "../codec";
import * as c from "../codec";
import {
  cardTxnStatus,
  cardTxnType,
  operateFeeType,
  operateRecordType,
  operateStatus,
  threeDsSendMethod,
  threeDsSendStatus,
  threeDsType,
} from "./enums";

// Responses are read leniently: no length limits (those bind what we send), and amounts take
// any sign and scale, so an unexpected value never makes a whole page or event unreadable.
const text = c.optional(c.string());
const amount = c.amountNumber({ sign: "any" });

/**
 * The issuing paged `data`. Some responses carry only one of current and pageNum (both name
 * the page number), so both are optional; core's issuingPage() takes whichever is present.
 */
export function issuingPage<C extends AnyCodec>(record: C) {
  return c.object({
    totalRecords: c.integer({ min: 0 }),
    pageSize: c.integer({ min: 0 }),
    current: c.optional(c.integer()),
    pageNum: c.optional(c.integer()),
    totalPages: c.integer({ min: 0 }),
    records: c.array(record),
  });
}

/** A cardholder as created or updated; unset values come back null (read as absent). */
export const cardholder = c.object({
  cardholderId: c.id(),
  firstName: c.string(),
  lastName: c.string(),
  email: c.string(),
  mobile: text,
  mobileAreaCode: text,
  birthDay: text,
  nationality: text,
  addressRegionCode: text,
  // The update request names the country addressCountryCode; accepted here too in case the
  // updated record echoes that name.
  addressCountryCode: text,
  addressStateCode: text,
  addressCityCode: text,
  addressDetailLine1: text,
  addressDetailLine2: text,
  addressPostalCode: text,
  remark: text,
});

/** One fee charged with a card operation. */
export const operateFee = c.object({
  feeType: operateFeeType,
  feeAmount: amount,
  feeCurrency: c.string(),
});

/** A card operation (create, freeze, deposit, return...): query result and operate event data. */
export const cardOperateRecord = c.object({
  operateRecordId: c.id(),
  cardId: c.id(),
  clientRequestId: c.string(),
  type: operateRecordType,
  status: operateStatus,
  remark: text,
  amount: c.optional(amount),
  currency: text,
  /** Milliseconds; only in query results, not in events. */
  operateTime: c.optional(c.epochMillis()),
  feeList: c.optional(c.array(operateFee)),
});

/**
 * A card transaction as queryTxnList returns it; the transaction event extends it with a cardId
 * that may be masked. Which fields are always present is not documented, so all but type,
 * status, order number and card are optional.
 */
export const cardTransactionRecord = c.object({
  txnType: cardTxnType,
  txnStatus: cardTxnStatus,
  txnOrderNo: c.string({ nonEmpty: true }),
  originTxnOrderNo: text,
  originTxnOrderNoForRefund: text,
  cardId: c.id(),
  authTime: c.optional(c.epochMillis()),
  authorizationCode: text,
  authMessageDesc: text,
  transactionAmount: c.optional(amount),
  transactionCurrency: text,
  transactionTime: c.optional(c.epochMillis()),
  cardAmount: c.optional(amount),
  cardCurrency: text,
  settleAmount: c.optional(amount),
  settleCurrency: text,
  settleTime: c.optional(c.epochMillis()),
  transactionFee: c.optional(amount),
  transactionFeeCurrency: text,
  crossBorderFee: c.optional(amount),
  crossBorderFeeCurrency: text,
  exchangeFee: c.optional(amount),
  exchangeFeeCurrency: text,
  merchantId: text,
  merchantName: text,
  merchantCountry: text,
  merchantCountryCode: text,
  merchantStateProvince: text,
  merchantCity: text,
  merchantPostalCode: text,
  merchantMccCode: text,
});

/** A 3DS verification value delivered for a card transaction (query3dsNotify). */
export const threeDsNotifyRecord = c.object({
  txnOrderNo: c.string({ nonEmpty: true }),
  merchantNo: text,
  // The 3DS query takes cardId as text (max 64 characters); read a number or a string.
  cardId: c.idText(),
  type: c.optional(threeDsType),
  sendMethod: c.optional(threeDsSendMethod),
  sendTarget: text,
  sendStatus: c.optional(threeDsSendStatus),
  sendTime: c.optional(c.epochMillis()),
  /** The delivered verification value (e.g. the OTP): sensitive, never log it. */
  card3dsValues: text,
  currency: text,
  amount: c.optional(amount),
  merchantName: text,
});

/**
 * Card transactions as the card network drives them (admin routes and the generator's pending
 * tail; merchants cannot create them through the API), with their effect on the card balance:
 *
 * - AUTHORIZATION: approved → P with a hold (available −= cardAmount); declined → F, no hold.
 *   It stays P until cleared in full, reversed in full, or failed (expired): then S/F.
 * - CLEARING (S): consumes the hold; what exceeds it and the fees come off the balance; the
 *   final clearing releases what is left of the hold and completes the authorization (S).
 * - REVERSAL (S): gives part or all of the hold back.
 * - REFUND of a clearing: P, the card is credited when it settles (S). Fees are not refunded.
 * - VERIFICATION: amount 0, S or F, no money.
 *
 * Every new record and every status change pushes an issuing.cardTransactionEvent.
 */
import { fromMinorUnits, toMinorUnits } from "@merchantkit/core";
import { fail } from "../runtime/sandbox-error";
import { convertMinor } from "./fx-rates";
import { cardTxnApp } from "./issuing-app-form";
import type { IssuingContext } from "./issuing-context";
import { type Card, CardTxn, type MerchantInfo, type TxnType } from "./issuing-records";
import { currencyScale, minUnits } from "./money-units";
import { clearingFees } from "./txn-fees";

export const APPROVED = "Approved";

function push(ctx: IssuingContext, txn: CardTxn): void {
  ctx.runtime.outbox.issuingEvent("issuing.cardTransactionEvent", cardTxnApp(txn));
}

function changed(ctx: IssuingContext, txn: CardTxn): void {
  ctx.state.transactions.changed();
  push(ctx, txn);
}

export function txnUnits(t: CardTxn): bigint {
  return toMinorUnits(t.transactionAmount, currencyScale(t.transactionCurrency));
}

export function cardUnits(t: CardTxn): bigint {
  return toMinorUnits(t.cardAmount, t.card.terms.scale);
}

function create(
  ctx: IssuingContext,
  fields: {
    type: TxnType;
    status: "P" | "S" | "F";
    auth?: CardTxn | undefined;
    refundOf?: CardTxn | undefined;
    card: Card;
    authTime: number;
    at: number;
    desc: string | undefined;
    units: bigint;
    currency: string;
    cardUnits: bigint;
    merchant: MerchantInfo;
  },
): CardTxn {
  const f = fields;
  const txn = new CardTxn(
    ctx.state.nextTxnSeq,
    f.type,
    f.status,
    f.auth,
    f.refundOf,
    f.card,
    f.authTime,
    f.at,
    f.desc,
    fromMinorUnits(f.units, currencyScale(f.currency)),
    f.currency,
    fromMinorUnits(f.cardUnits, f.card.terms.scale),
    f.merchant,
  );
  if (f.status === "S") txn.settleTime = f.at;
  ctx.state.addTransaction(txn);
  return txn;
}

/**
 * A clearing, reversal or refund: its card, authorization time, currency and merchant are
 * those of the transaction it follows (the authorization, or the clearing a refund returns).
 */
function createFollowUp(
  ctx: IssuingContext,
  of: CardTxn,
  fields: Pick<
    Parameters<typeof create>[1],
    "type" | "status" | "auth" | "refundOf" | "at" | "units" | "cardUnits"
  >,
): CardTxn {
  return create(ctx, {
    ...fields,
    card: of.card,
    authTime: of.authTime,
    desc: undefined,
    currency: of.transactionCurrency,
    merchant: of.merchant,
  });
}

export interface AuthorizeInput {
  card: Card;
  amount: string;
  currency: string;
  merchant: MerchantInfo;
  at: number;
  /** Decline with this message (authMessageDesc) instead of applying the card's rules. */
  decline?: string | undefined;
}

export function authorize(ctx: IssuingContext, input: AuthorizeInput): CardTxn {
  const { card, currency, at } = input;
  const units = toMinorUnits(input.amount, currencyScale(currency));
  const inCard = convertMinor(units, currency, card.currency);
  const decline =
    input.decline ??
    (card.status === "FROZEN"
      ? "Card frozen"
      : card.status === "TERMINATED"
        ? "Card terminated"
        : inCard > card.available
          ? "Insufficient funds"
          : undefined);
  const txn = create(ctx, {
    type: "AUTHORIZATION",
    status: decline === undefined ? "P" : "F",
    card,
    authTime: at,
    at,
    desc: decline ?? APPROVED,
    units,
    currency,
    cardUnits: inCard,
    merchant: input.merchant,
  });
  if (decline === undefined) {
    card.available -= inCard;
    ctx.state.holds.set(txn, inCard);
  }
  push(ctx, txn);
  return txn;
}

export function verify(
  ctx: IssuingContext,
  input: { card: Card; currency: string; merchant: MerchantInfo; at: number; decline?: string },
): CardTxn {
  const blocked = input.card.status === "ACTIVE" ? undefined : "Card not active";
  const decline = input.decline ?? blocked;
  const txn = create(ctx, {
    type: "VERIFICATION",
    status: decline === undefined ? "S" : "F",
    card: input.card,
    authTime: input.at,
    at: input.at,
    desc: decline ?? APPROVED,
    units: 0n,
    currency: input.currency,
    cardUnits: 0n,
    merchant: input.merchant,
  });
  push(ctx, txn);
  return txn;
}

function pendingAuth(auth: CardTxn): void {
  if (auth.txnType !== "AUTHORIZATION") fail("40000", `${auth.txnOrderNo} is not an authorization`);
  if (auth.txnStatus !== "P") fail("40000", `authorization ${auth.txnOrderNo} is not pending`);
}

/** What of the authorization is neither cleared nor reversed yet (transaction currency). */
function remainingOf(ctx: IssuingContext, auth: CardTxn): bigint {
  return txnUnits(auth) - (ctx.state.consumed.get(auth) ?? 0n);
}

/** Completes a pending authorization: the rest of its hold goes back to the card. */
function complete(ctx: IssuingContext, auth: CardTxn, at: number): void {
  const { state } = ctx;
  auth.card.available += state.holds.get(auth) ?? 0n;
  state.holds.delete(auth);
  state.consumed.delete(auth);
  auth.txnStatus = "S";
  auth.settleTime = at;
  changed(ctx, auth);
}

export function clear(
  ctx: IssuingContext,
  auth: CardTxn,
  input: { amount?: string | undefined; at: number; final?: boolean | undefined },
): CardTxn {
  pendingAuth(auth);
  const { state } = ctx;
  const card = auth.card;
  const scale = currencyScale(auth.transactionCurrency);
  const units =
    input.amount === undefined ? remainingOf(ctx, auth) : toMinorUnits(input.amount, scale);
  if (units <= 0n) fail("40000", "clearing amount must be greater than 0");
  const inCard = convertMinor(units, auth.transactionCurrency, card.currency);
  const fees = clearingFees(card, auth.merchant, auth.transactionCurrency, inCard);
  const held = state.holds.get(auth) ?? 0n;
  const fromHold = minUnits(inCard, held);
  card.available -= inCard - fromHold + fees.totalUnits;
  state.holds.set(auth, held - fromHold);
  state.consumed.set(auth, (state.consumed.get(auth) ?? 0n) + units);
  const txn = createFollowUp(ctx, auth, {
    type: "CLEARING",
    status: "S",
    auth,
    at: input.at,
    units,
    cardUnits: inCard,
  });
  txn.transactionFee = fees.transactionFee;
  txn.crossBorderFee = fees.crossBorderFee;
  txn.exchangeFee = fees.exchangeFee;
  push(ctx, txn);
  if (input.final ?? true) complete(ctx, auth, input.at);
  return txn;
}

export function reverse(
  ctx: IssuingContext,
  auth: CardTxn,
  input: { amount?: string | undefined; at: number },
): CardTxn {
  pendingAuth(auth);
  const { state } = ctx;
  const card = auth.card;
  const remaining = remainingOf(ctx, auth);
  const units =
    input.amount === undefined
      ? remaining
      : toMinorUnits(input.amount, currencyScale(auth.transactionCurrency));
  if (units <= 0n || units > remaining) {
    fail("40000", "reversal amount must be greater than 0 and at most what is not yet cleared");
  }
  const held = state.holds.get(auth) ?? 0n;
  // A full reversal gives back the whole hold, so no cent is left behind by rounding.
  const converted = convertMinor(units, auth.transactionCurrency, card.currency);
  const back = units === remaining || converted > held ? held : converted;
  card.available += back;
  state.holds.set(auth, held - back);
  state.consumed.set(auth, (state.consumed.get(auth) ?? 0n) + units);
  const txn = createFollowUp(ctx, auth, {
    type: "REVERSAL",
    status: "S",
    auth,
    at: input.at,
    units,
    cardUnits: back,
  });
  push(ctx, txn);
  if (units === remaining) complete(ctx, auth, input.at);
  return txn;
}

export function refund(
  ctx: IssuingContext,
  clearing: CardTxn,
  input: { amount?: string | undefined; at: number },
): CardTxn {
  if (clearing.txnType !== "CLEARING") fail("40000", "only a clearing can be refunded");
  const { state } = ctx;
  const already = state.refunded.get(clearing) ?? 0n;
  const refundable = txnUnits(clearing) - already;
  const units =
    input.amount === undefined
      ? refundable
      : toMinorUnits(input.amount, currencyScale(clearing.transactionCurrency));
  if (units <= 0n || units > refundable) {
    fail("40000", "refund amount must be greater than 0 and at most what is not yet refunded");
  }
  state.refunded.set(clearing, already + units);
  const inCard =
    units === txnUnits(clearing)
      ? cardUnits(clearing)
      : convertMinor(units, clearing.transactionCurrency, clearing.card.currency);
  const txn = createFollowUp(ctx, clearing, {
    type: "REFUND",
    status: "P",
    auth: clearing.auth,
    refundOf: clearing,
    at: input.at,
    units,
    cardUnits: inCard,
  });
  push(ctx, txn);
  return txn;
}

/** Finishes a P record the normal way: an authorization clears in full, a refund credits. */
export function settleTxn(ctx: IssuingContext, txn: CardTxn, at: number): void {
  if (txn.txnStatus !== "P") fail("40000", `${txn.txnOrderNo} is not P`);
  if (txn.txnType === "AUTHORIZATION") {
    if (remainingOf(ctx, txn) > 0n) clear(ctx, txn, { at, final: true });
    else complete(ctx, txn, at);
    return;
  }
  if (txn.txnType === "REFUND") txn.card.available += cardUnits(txn);
  txn.txnStatus = "S";
  txn.settleTime = at;
  changed(ctx, txn);
}

/** Fails a P record: an authorization expires (hold released), a refund is cancelled. */
export function failTxn(ctx: IssuingContext, txn: CardTxn, at: number, reason?: string): void {
  if (txn.txnStatus !== "P") fail("40000", `${txn.txnOrderNo} is not P`);
  const { state } = ctx;
  if (txn.txnType === "AUTHORIZATION") {
    txn.card.available += state.holds.get(txn) ?? 0n;
    state.holds.delete(txn);
    state.consumed.delete(txn);
    txn.authMessageDesc = reason ?? "Expired";
  }
  if (txn.txnType === "REFUND" && txn.refundOf) {
    const done = state.refunded.get(txn.refundOf) ?? 0n;
    state.refunded.set(txn.refundOf, done - txnUnits(txn));
  }
  txn.txnStatus = "F";
  txn.settleTime = at;
  changed(ctx, txn);
}

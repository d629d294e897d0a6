/**
 * Puts generated records into the issuing state in one go: each kind sorted by time once, then
 * numbered in that order (so ids follow time, as for live records), merged with what the state
 * already holds, and indexed. Operations are posted to the merchant ledger in time order, with
 * a funding credit whenever the merchant account would not cover a card's money.
 */
import { fromMinorUnits, toMinorUnits } from "@merchantkit/core";

import type { CardTxn, OperateRecord, ThreeDsRecord } from "../issuing/issuing-records";
import type { IssuingState } from "../issuing/issuing-state";
import { currencyScale } from "../issuing/money-units";
import { postCharge, postReturn } from "../issuing/operation-money";
import { type Sequenced, sortByTime } from "../issuing/sorted-log";
import type { Runtime } from "../runtime/area";
import type { PendingThreeDs } from "./card-simulation";
import { topUpIfShort } from "./top-up";

/** Merges two lists sorted by (time, seq) into one. */
function mergeSorted<T extends Sequenced>(a: T[], b: T[], timeOf: (x: T) => number): T[] {
  if (a.length === 0) return b;
  const out: T[] = new Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as T;
    const y = b[j] as T;
    const before = timeOf(x) < timeOf(y) || (timeOf(x) === timeOf(y) && x.seq < y.seq);
    if (before) {
      out[k++] = x;
      i++;
    } else {
      out[k++] = y;
      j++;
    }
  }
  while (i < a.length) out[k++] = a[i++] as T;
  while (j < b.length) out[k++] = b[j++] as T;
  return out;
}

export function loadTransactions(state: IssuingState, txns: CardTxn[]): void {
  const timeOf = (t: CardTxn) => t.transactionTime;
  sortByTime(txns, timeOf);
  const base = state.nextTxnSeq;
  for (let i = 0; i < txns.length; i++) (txns[i] as CardTxn).seq = base + i;
  // Two arrays: the log's may later get a live record spliced in, the seq table must not.
  state.txnBySeq = base === 0 ? txns.slice() : state.txnBySeq.concat(txns);
  state.transactions.load(mergeSorted(state.transactions.all.items, txns, timeOf));
}

export function loadThreeDs(state: IssuingState, pending: PendingThreeDs[], sendTarget: string) {
  const records: ThreeDsRecord[] = pending.map((p, i) => ({
    seq: i,
    txnOrderNo: p.auth.txnOrderNo,
    merchantNo: p.auth.card.merchantNo,
    card: p.auth.card,
    type: "OTP",
    sendMethod: "WEBHOOK",
    sendTarget,
    sendStatus: "S",
    sendTime: p.sendTime,
    card3dsValues: p.otp,
    currency: p.auth.transactionCurrency,
    amount: p.auth.transactionAmount,
    merchantName: p.auth.merchant.merchantName,
  }));
  const timeOf = (r: ThreeDsRecord) => r.sendTime;
  sortByTime(records, timeOf);
  for (const r of records) r.seq = state.nextThreeDsSeq();
  state.threeDs.load(mergeSorted(state.threeDs.all.items, records, timeOf));
  return records.length;
}

/** Ids, ledger postings and indexes for generated operations; returns the postings made. */
export function loadOperations(
  runtime: Runtime,
  state: IssuingState,
  ops: OperateRecord[],
): number {
  const { ledger, ids } = runtime;
  const before = ledger.transactions.length;
  const timeOf = (r: OperateRecord) => r.operateTime;
  sortByTime(ops, timeOf);
  for (const op of ops) {
    op.seq = state.nextOpSeq();
    op.operateRecordId = ids.next();
  }
  for (const op of ops) {
    if (op.status !== "S" || op.amount === undefined) continue;
    if (op.type === "CREATE" || op.type === "DEPOSIT") {
      const scale = currencyScale(op.currency);
      let total = toMinorUnits(op.amount, scale);
      for (const fee of op.feeList) total += toMinorUnits(fee.feeAmount, scale);
      topUpIfShort(runtime, op.currency, fromMinorUnits(total, scale), op.operateTime - 60_000);
      postCharge(ledger, op, op.operateTime);
    } else if (op.type === "RETURN" || (op.type === "TERMINATE" && /[1-9]/.test(op.amount))) {
      postReturn(ledger, op, op.amount, op.finishTime ?? op.operateTime);
    }
  }
  state.operations.load(mergeSorted(state.operations.all.items, ops, timeOf));
  for (const op of ops) state.operationsById.set(op.operateRecordId, op);
  return ledger.transactions.length - before;
}

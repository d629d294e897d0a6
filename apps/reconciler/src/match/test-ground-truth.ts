// Test support: the sandbox's ground truth written straight into the provider tables, as a
// complete sync would leave them (watermarks at asOf, every serviceId fetched), so matching
// can be tested without the HTTP sync.

import type { GroundTruth } from "@merchantkit/sandbox";
import type { Db } from "../db/database";
import type { AccountTransactionInput } from "../store/account-transactions";
import type { CardTransactionInput } from "../store/card-transactions";
import { commitWindow } from "../store/commit-window";
import type { OperateRecordInput } from "../store/operate-records";
import { markServiceIdsFetched, serviceIdsToFetch } from "../store/service-ids";

export async function storeGroundTruth(db: Db, truth: GroundTruth, asOf: Date): Promise<void> {
  const issuing = truth.areas.issuing ?? {};
  await commitWindow(db, {
    stream: "card_transactions",
    records: { cardTransactions: (issuing.cardTransactions ?? []) as CardTransactionInput[] },
    watermark: asOf,
  });
  await commitWindow(db, {
    stream: "operate_records",
    records: {
      operateRecords: (issuing.operateRecords ?? []) as OperateRecordInput[],
      accountTransactions: truth.ledger.transactions as AccountTransactionInput[],
    },
    watermark: asOf,
  });
  await markAllFetched(db);
}

/** Every due serviceId marked fetched (their account transactions are stored). */
export async function markAllFetched(db: Db): Promise<void> {
  for (;;) {
    const due = await serviceIdsToFetch(db, 10_000);
    if (due.serviceIds.length === 0) return;
    await markServiceIdsFetched(db, due.serviceIds, due.asOf);
  }
}

/** A settled clearing of `amount` (settled in `currency`, default USD) on a USD card, at `at`. */
export function settledClearing(c: {
  cardId: string;
  txnOrderNo: string;
  amount: string;
  at: number;
  currency?: string;
  originTxnOrderNo?: string;
}): Record<string, string | number> {
  return {
    cardId: c.cardId,
    cardCurrency: "USD",
    txnType: "CLEARING",
    txnStatus: "S",
    txnOrderNo: c.txnOrderNo,
    ...(c.originTxnOrderNo ? { originTxnOrderNo: c.originTxnOrderNo } : {}),
    transactionTime: c.at,
    cardAmount: c.amount,
    settleAmount: c.amount,
    settleCurrency: c.currency ?? "USD",
    settleTime: c.at,
  };
}

/** Ground truth holding only these card transactions: no operations, no account postings. */
export function cardTransactionsTruth(cardTransactions: object[]): GroundTruth {
  return {
    ledger: { transactions: [] },
    areas: { issuing: { cardTransactions, operateRecords: [] } },
  } as unknown as GroundTruth;
}

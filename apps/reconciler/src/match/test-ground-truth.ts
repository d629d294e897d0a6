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

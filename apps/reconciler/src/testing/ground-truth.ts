// Test support: the sandbox's ground truth written straight into the provider tables, as a
// complete sync would leave them (watermarks at asOf, every serviceId fetched), so matching
// can be tested without the HTTP sync.

import type { GroundTruth } from "@merchantkit/sandbox";
import type { Db } from "../db/database";
import { queryText } from "../db/query-rows";
import { importLedger } from "../ledger/import-ledger";
import type { AccountTransactionInput } from "../store/account-transactions";
import type { CardTransactionInput } from "../store/card-transactions";
import { commitWindow } from "../store/commit-window";
import type { OperateRecordInput } from "../store/operate-records";
import { markServiceIdsFetched, serviceIdsToFetch } from "../store/service-ids";
import { LEDGER_HEADER } from "./ledger-files";

/** The tables the sync fills (provider records, their versions, serviceIds), for a fresh world. */
export const PROVIDER_TABLES = `card_transactions, card_transaction_versions, operate_records,
  operate_record_fees, operate_record_versions, account_transactions,
  account_transaction_versions, service_ids`;

/** Empties the provider tables: the next storeGroundTruth is the whole provider world. */
export async function clearProviderData(db: Db): Promise<void> {
  await queryText(db, `TRUNCATE ${PROVIDER_TABLES}`);
}

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
    await markServiceIdsFetched(db, due.serviceIds, due.asOf, []);
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

/**
 * Three settled clearings K1–K3 of `card` (10.00, 11.00, 12.00 USD, three days before asOf) and
 * a ledger booking K1 and K2: K3 missing in the ledger is the one break a run finds.
 */
export async function storeOneUnbookedClearing(db: Db, asOf: number, card: string): Promise<void> {
  const at = asOf - 3 * 86_400_000;
  const clearings = ["K1", "K2", "K3"].map((txnOrderNo, i) =>
    settledClearing({ cardId: card, txnOrderNo, amount: `${10 + i}.00`, at }),
  );
  await storeGroundTruth(db, cardTransactionsTruth(clearings), new Date(asOf));
  const booked = new Date(at).toISOString();
  await importLedger(
    db,
    [
      LEDGER_HEADER,
      `E1,card_transaction,K1,-10.00,USD,${booked},,${card},`,
      `E2,card_transaction,K2,-11.00,USD,${booked},,${card},`,
    ].join("\n"),
  );
}

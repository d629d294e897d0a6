// A refund booked while the clearing it gives back is not: the break's money is the clearing
// with its fees, as the daily statement explains it, and the break is dated by the refund it is
// shown on. PGlite and (with DATABASE_URL) a Postgres server.
import { describe, expect, it } from "vitest";
import type { Db } from "../db/database";
import { queryText } from "../db/query-rows";
import { importLedger } from "../ledger/import-ledger";
import { testBackends } from "../testing/databases";
import { cardTransactionsTruth, settledClearing, storeGroundTruth } from "../testing/ground-truth";
import { LEDGER_HEADER } from "../testing/ledger-files";
import { useTestDatabase } from "../testing/use-database";
import { runMatch } from "./run-match";

const AS_OF = Date.parse("2026-06-10T00:00:00Z");
const CARD = "1953712585351400009";
const CLEARED = Date.parse("2026-06-01T10:00:00Z");
const REFUNDED = Date.parse("2026-06-03T15:00:00Z");

describe.each(testBackends())("an orphan refund on %s", (kind) => {
  let db: Db;
  useTestDatabase(kind, (opened) => {
    db = opened.db;
  });

  it("carries the clearing's fees in its amount and the refund's time", async () => {
    const clearing = {
      ...settledClearing({
        cardId: CARD,
        txnOrderNo: "K1",
        amount: "38.40",
        at: CLEARED,
        currency: "EUR",
      }),
      transactionFee: "0.31",
      transactionFeeCurrency: "EUR",
    };
    const refund = {
      ...settledClearing({
        cardId: CARD,
        txnOrderNo: "R1",
        amount: "10.00",
        at: REFUNDED,
        currency: "EUR",
      }),
      txnType: "REFUND",
      originTxnOrderNoForRefund: "K1",
    };
    await storeGroundTruth(db, cardTransactionsTruth([clearing, refund]), new Date(AS_OF));
    await importLedger(
      db,
      [LEDGER_HEADER, `E1,card_transaction,R1,10.00,EUR,2026-06-03,,${CARD},refund`].join("\n"),
    );
    await runMatch(db, { asOf: new Date(AS_OF) });
    const breaks = await queryText(
      db,
      `SELECT class, provider_ref, currency, amount::text, provider_amount::text,
         occurred_at = '${new Date(REFUNDED).toISOString()}'::timestamptz AS at_refund
       FROM breaks WHERE status <> 'resolved'`,
    );
    expect(breaks).toEqual([
      {
        class: "orphan_refund_or_reversal",
        provider_ref: "R1",
        currency: "EUR",
        amount: "38.71",
        provider_amount: "-38.71",
        at_refund: true,
      },
    ]);
    // The statement explains the same money by the break.
    const [explained] = await queryText<{ provider: string }>(
      db,
      `SELECT sum(provider_amount)::text AS provider FROM finance_statement_lines
       WHERE break_id IN (SELECT break_id FROM breaks WHERE class = 'orphan_refund_or_reversal')`,
    );
    expect(explained?.provider).toBe("-38.71");
  });
});

// Records of one key or one chain in several currencies: amounts in different currencies are
// never added up or compared with each other while a same-currency counterpart exists. A chain
// settled in two currencies is a currency_mismatch stating each currency's sum
// (authorization-chain.ts); entries on a key with items in two currencies are compared with the
// item of their own currency first (key-mismatch.ts). PGlite and (with DATABASE_URL) a Postgres
// server.
import type { GroundTruth } from "@merchantkit/sandbox";
import { describe, expect, it } from "vitest";
import type { Db } from "../db/database";
import { queryText } from "../db/query-rows";
import { importLedger } from "../ledger/import-ledger";
import { testBackends } from "../testing/databases";
import {
  cardTransactionsTruth,
  clearProviderData,
  settledClearing,
  storeGroundTruth,
} from "../testing/ground-truth";
import { LEDGER_HEADER } from "../testing/ledger-files";
import { useTestDatabase } from "../testing/use-database";
import { runMatch } from "./run-match";

const AS_OF = Date.parse("2026-06-01T00:00:00Z");
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const CARD = "1953712585351400001";
const SID = "1953712585351420009";
const HEAD = LEDGER_HEADER;

/** Authorization A1 cleared as 100.00 USD and 50.00 in `second` (EUR unless given). */
function chainTruth(second = "EUR"): GroundTruth {
  const clearing = (txnOrderNo: string, amount: string, currency: string) =>
    settledClearing({
      cardId: CARD,
      txnOrderNo,
      amount,
      currency,
      originTxnOrderNo: "A1",
      at: AS_OF - 4 * DAY,
    });
  return cardTransactionsTruth([
    {
      cardId: CARD,
      cardCurrency: "USD",
      txnType: "AUTHORIZATION",
      txnStatus: "S",
      txnOrderNo: "A1",
      transactionTime: AS_OF - 5 * DAY,
      cardAmount: "150.00",
    },
    clearing("K1", "100.00", "USD"),
    clearing("K2", "50.00", second),
  ]);
}

/** One serviceId with postings of 1000.00 USD and 500.00 EUR. */
function keyTruth(): GroundTruth {
  const posting = (id: string, currency: string, amount: string) => ({
    acntTxnId: id,
    serviceId: SID,
    currency,
    balanceType: "AVAILABLE",
    amount,
    balanceUpdDate: iso(AS_OF - 3 * DAY),
    businessType: "TOP_UP",
  });
  return {
    ledger: {
      transactions: [
        posting("1953712585351410101", "USD", "1000.00"),
        posting("1953712585351410102", "EUR", "500.00"),
      ],
    },
    areas: { issuing: { cardTransactions: [], operateRecords: [] } },
  } as unknown as GroundTruth;
}

describe.each(testBackends())("records in several currencies on %s", (kind) => {
  let db: Db;
  useTestDatabase(kind, (opened) => {
    db = opened.db;
  });

  /** Replaces the provider data and the ledger, runs; the open breaks, by entry. */
  async function breaksOf(truth: GroundTruth, lines: string[]) {
    await clearProviderData(db);
    await queryText(db, "DELETE FROM ledger_entries");
    // The ledger first: storing the provider data marks the serviceIds it names fetched.
    await importLedger(db, [HEAD, ...lines].join("\n"));
    await storeGroundTruth(db, truth, new Date(AS_OF));
    const run = await runMatch(db, { asOf: new Date(AS_OF), maxSyncLagMs: 30 * DAY });
    expect(run.reasons).toEqual([]);
    return queryText<Record<string, string | null>>(
      db,
      `SELECT class, entry_id, currency, amount, provider_amount, ledger_amount, detail FROM breaks
       WHERE status <> 'resolved' ORDER BY entry_id, break_id`,
    );
  }

  it("never sums a chain's clearings in USD and EUR into one amount", async () => {
    const breaks = await breaksOf(chainTruth(), [
      `C1,card_transaction,A1,-100.00,USD,${iso(AS_OF - 2 * DAY)},,${CARD},`,
    ]);
    expect(breaks).toEqual([
      {
        class: "currency_mismatch",
        entry_id: "C1",
        currency: "USD",
        amount: "100.00",
        provider_amount: null,
        ledger_amount: "-100.00",
        detail:
          "authorization A1: its clearings and refunds are in several currencies (-50.00 EUR, -100.00 USD), the ledger books -100.00 USD (entry C1)",
      },
    ]);
  }, 60_000);

  it("compares each entry on a key with the item of its own currency", async () => {
    const at = iso(AS_OF - 3 * DAY);
    const breaks = await breaksOf(keyTruth(), [
      `A1,account,${SID},999.00,USD,${at},,,`,
      `A2,account,${SID},499.00,EUR,${at},,,`,
    ]);
    expect(breaks.map((b) => `${b.entry_id}:${b.class}:${b.amount}:${b.currency}`)).toEqual([
      "A1:amount_mismatch:1.00:USD",
      "A2:amount_mismatch:1.00:EUR",
    ]);
  }, 60_000);

  it("pairs what is left of a key across currencies", async () => {
    const at = iso(AS_OF - 3 * DAY);
    const breaks = await breaksOf(keyTruth(), [
      `A1,account,${SID},999.00,USD,${at},,,`,
      `A2,account,${SID},500.00,GBP,${at},,,`,
    ]);
    expect(
      breaks.map((b) => `${b.entry_id}:${b.class}:${b.provider_amount}:${b.currency}`),
    ).toEqual(["A1:amount_mismatch:1000.00:USD", "A2:currency_mismatch:500.00:EUR"]);
  }, 60_000);

  // The amount at stake is in the break's currency (the provider's): the provider's side whole,
  // never the ledger's amount in another currency. It ties to the break's signed effect in that
  // currency (finance_break_effects), which the report, the queue totals and a write-off use.
  it("states a currency_mismatch's amount at stake in its own currency: the provider's side", async () => {
    const at = iso(AS_OF - 3 * DAY);
    const keyed = await breaksOf(keyTruth(), [
      `A1,account,${SID},1000.00,USD,${at},,,`,
      `A2,account,${SID},450.00,GBP,${at},,,`,
    ]);
    expect(
      keyed.map((b) => `${b.entry_id}:${b.class}:${b.amount} ${b.currency}:${b.ledger_amount}`),
    ).toEqual(["A2:currency_mismatch:500.00 EUR:450.00"]);
    expect(await stakeAndEffect(db)).toEqual([{ amount: "500.00", effect: "500.00" }]);

    const chained = await breaksOf(chainTruth("USD"), [
      `C1,card_transaction,A1,-140.00,EUR,${iso(AS_OF - 2 * DAY)},,${CARD},`,
    ]);
    expect(
      chained.map((b) => `${b.entry_id}:${b.class}:${b.amount} ${b.currency}:${b.provider_amount}`),
    ).toEqual(["C1:currency_mismatch:150.00 USD:-150.00"]);
    expect(await stakeAndEffect(db)).toEqual([{ amount: "150.00", effect: "-150.00" }]);
  }, 60_000);
});

/** Each open currency_mismatch's amount at stake and its signed effect in the break's currency. */
const stakeAndEffect = (db: Db) =>
  queryText<{ amount: string; effect: string }>(
    db,
    `SELECT b.amount::text AS amount, e.effect::text AS effect FROM breaks b
     JOIN finance_break_effects e ON e.break_id = b.break_id AND e.currency = b.currency
     WHERE b.class = 'currency_mismatch' AND b.status <> 'resolved' ORDER BY b.break_id`,
  );

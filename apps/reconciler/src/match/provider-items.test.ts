// What provider_items makes of a refund's fee and of an account group's postings: a fee
// credited back on a refund is a fee item (+1.00 for a transactionFee of -1.00) that a fee line
// of +1.00 books, in every booking style; a payout that failed and came back with its fee nets
// to 0.00 and raises nothing unbooked, yet an entry booking it as 0.00 matches it; an account
// item is named by its business type, not by its fee's. PGlite and (with DATABASE_URL) a
// Postgres server.
import type { GroundTruth } from "@merchantkit/sandbox";
import { describe, expect, it } from "vitest";
import type { Db } from "../db/database";
import { queryText } from "../db/query-rows";
import { importLedger } from "../ledger/import-ledger";
import { testBackends } from "../testing/databases";
import { clearProviderData, markAllFetched, storeGroundTruth } from "../testing/ground-truth";
import { type LedgerLine, ledgerCsv } from "../testing/ledger-files";
import { runFigures, storedDifference, storedResults } from "../testing/stored-results";
import { useTestDatabase } from "../testing/use-database";
import { runMatch } from "./run-match";

const AS_OF = Date.parse("2026-06-01T00:00:00Z");
const DAY = 86_400_000;
const at = (daysBefore: number) => AS_OF - daysBefore * DAY;
const iso = (ms: number) => new Date(ms).toISOString();
const CARD = "1953712585351400001";

/** Authorization A1, its clearing K1 (100.00, fee 1.00) and refund R1 (30.00, fee -0.30 back). */
function refundWorld(): GroundTruth {
  const txn = (t: Record<string, string | number>) => ({
    cardId: CARD,
    cardCurrency: "USD",
    txnStatus: "S",
    ...t,
  });
  return {
    ledger: { transactions: [] },
    areas: {
      issuing: {
        operateRecords: [],
        cardTransactions: [
          txn({
            txnType: "AUTHORIZATION",
            txnOrderNo: "A1",
            transactionTime: at(5),
            cardAmount: "100.00",
          }),
          txn({
            txnType: "CLEARING",
            txnOrderNo: "K1",
            originTxnOrderNo: "A1",
            transactionTime: at(4),
            cardAmount: "100.00",
            settleAmount: "100.00",
            settleCurrency: "USD",
            settleTime: at(4),
            transactionFee: "1.00",
            transactionFeeCurrency: "USD",
          }),
          txn({
            txnType: "REFUND",
            txnOrderNo: "R1",
            originTxnOrderNo: "A1",
            originTxnOrderNoForRefund: "K1",
            transactionTime: at(3),
            cardAmount: "30.00",
            settleAmount: "30.00",
            settleCurrency: "USD",
            settleTime: at(3),
            transactionFee: "-0.30",
            transactionFeeCurrency: "USD",
          }),
        ],
      },
    },
  } as unknown as GroundTruth;
}

/** Account postings only: [serviceId, amount, businessType] each, USD, three days back. */
function accountWorld(postings: [string, string, string][]): GroundTruth {
  return {
    ledger: {
      transactions: postings.map(([serviceId, amount, businessType], i) => ({
        acntTxnId: `19537125853514400${String(i + 10)}`,
        serviceId,
        currency: "USD",
        balanceType: "AVAILABLE",
        amount,
        balanceUpdDate: iso(at(3)),
        businessType,
      })),
    },
    areas: { issuing: { cardTransactions: [], operateRecords: [] } },
  } as unknown as GroundTruth;
}

type Line = LedgerLine;

const csvOf = (lines: Line[]) => ledgerCsv(lines, iso(at(2)), CARD);

type Break = {
  class: string;
  status: string;
  entry_id: string | null;
  amount: string;
  detail: string;
};

// Every run may be incremental, however large its scope next to these few records.
const OPTS = { maxScopeShare: 1 };

const PAYOUT = "1953712585351430001";
const FEES_ONLY = "1953712585351430002";

describe.each(testBackends())("provider items on %s", (kind) => {
  let db: Db;
  useTestDatabase(kind, (opened) => {
    db = opened.db;
  });

  /** The world and the ledger, fresh; one full run; its verdict and unresolved breaks. */
  async function match(truth: GroundTruth, lines: Line[]) {
    await clearProviderData(db);
    await storeGroundTruth(db, truth, new Date(AS_OF));
    await queryText(db, "DELETE FROM ledger_entries");
    await importLedger(db, csvOf(lines));
    // A ledger entry on a serviceId asks for its postings: they are stored, as a sync would.
    await markAllFetched(db);
    const run = await runMatch(db, { ...OPTS, asOf: new Date(AS_OF), full: true });
    expect(run.reasons).toEqual([]);
    const breaks = await queryText<Break>(
      db,
      `SELECT class, status, entry_id, amount::text AS amount, detail FROM breaks
       WHERE status <> 'resolved' ORDER BY class, entry_id, provider_ref`,
    );
    return { verdict: run.verdict, breaks };
  }

  describe("a fee credited back on a refund", () => {
    const perRecord: Line[] = [
      ["E1", "card_transaction", "K1", "-100.00"],
      ["F1", "fee", "K1", "-1.00", "TRANSACTION"],
      ["E2", "card_transaction", "R1", "30.00"],
    ];

    it("is a provider fee item: unbooked, a fee_mismatch of 0.30", async () => {
      const { verdict, breaks } = await match(refundWorld(), perRecord);
      expect(verdict).toBe("breaks");
      expect(breaks).toEqual([
        {
          class: "fee_mismatch",
          status: "open",
          entry_id: null,
          amount: "0.30",
          detail: "TRANSACTION fee of 0.30 USD on R1: the ledger has no such fee line",
        },
      ]);
    });

    it("is matched exactly by a fee line of +0.30 on the refund", async () => {
      const { verdict, breaks } = await match(refundWorld(), [
        ...perRecord,
        ["F2", "fee", "R1", "0.30", "TRANSACTION"],
      ]);
      expect(breaks).toEqual([]);
      expect(verdict).toBe("reconciled");
      const pairs = await queryText<{ match_id: string; provider_amount: string }>(
        db,
        `SELECT match_id, provider_amount::text AS provider_amount FROM matches
         WHERE match_id LIKE 'exact:fee:%' ORDER BY match_id`,
      );
      expect(pairs).toEqual([
        { match_id: "exact:fee:K1#TRANSACTION", provider_amount: "-1.00" },
        { match_id: "exact:fee:R1#TRANSACTION", provider_amount: "0.30" },
      ]);
    });

    it("goes with its refund when the refund is not booked", async () => {
      const { breaks } = await match(refundWorld(), perRecord.slice(0, 2));
      // At stake: the refund with its fee credited back, as the statement explains the break.
      expect(breaks.map((b) => [b.class, b.amount])).toEqual([["missing_in_ledger", "30.30"]]);
      const records = await queryText<{ record_kind: string; record_ref: string; amount: string }>(
        db,
        `SELECT r.record_kind, r.record_ref, r.amount::text AS amount FROM break_records r
         JOIN breaks b ON b.break_id = r.break_id WHERE b.status <> 'resolved'
         ORDER BY r.record_kind, r.record_ref`,
      );
      expect(records).toEqual([
        { record_kind: "card_transaction", record_ref: "R1", amount: "30.00" },
        { record_kind: "fee", record_ref: "R1#TRANSACTION", amount: "0.30" },
      ]);
    });

    it("leaves the chain and net styles as they were, the fee booked as a fee line", async () => {
      for (const [style, entry] of [
        ["chain", ["E1", "card_transaction", "A1", "-70.00"]],
        ["net", ["E1", "card_transaction", "K1", "-70.00"]],
      ] as [string, Line][]) {
        const fees: Line[] = [
          ["F1", "fee", "K1", "-1.00", "TRANSACTION"],
          ["F2", "fee", "R1", "0.30", "TRANSACTION"],
        ];
        const booked = await match(refundWorld(), [entry, ...fees]);
        expect({ style, ...booked }).toEqual({ style, verdict: "reconciled", breaks: [] });
        const unbooked = await match(refundWorld(), [entry, fees[0] as Line]);
        expect({ style, breaks: unbooked.breaks.map((b) => [b.class, b.amount]) }).toEqual({
          style,
          breaks: [["fee_mismatch", "0.30"]],
        });
      }
    });
  });

  describe("account postings", () => {
    // A payout that failed: paid out, charged a fee, both refunded.
    const failedPayout = accountWorld([
      [PAYOUT, "-1000.00", "PAYOUT"],
      [PAYOUT, "-0.13", "FEE"],
      [PAYOUT, "1000.13", "PAYOUT_REFUND"],
    ]);

    it("netting to 0.00 and not booked raise nothing", async () => {
      expect(await match(failedPayout, [])).toEqual({ verdict: "reconciled", breaks: [] });
    });

    it("netting to 0.00 are matched by an entry booking them as 0.00", async () => {
      expect(await match(failedPayout, [["A1", "account", PAYOUT, "0.00"]])).toEqual({
        verdict: "reconciled",
        breaks: [],
      });
      const pairs = await queryText<{ match_id: string }>(db, "SELECT match_id FROM matches");
      expect(pairs).toEqual([{ match_id: `exact:account:${PAYOUT}:USD` }]);
    });

    it("netting to 0.00 booked as another amount are an amount_mismatch", async () => {
      const { breaks } = await match(failedPayout, [["A1", "account", PAYOUT, "-1000.13"]]);
      expect(breaks.map((b) => [b.class, b.entry_id, b.amount])).toEqual([
        ["amount_mismatch", "A1", "1000.13"],
      ]);
    });

    it("are named by their business type, not their fee's; fees alone by FEE", async () => {
      const { breaks } = await match(
        accountWorld([
          [PAYOUT, "-1000.00", "PAYOUT"],
          [PAYOUT, "-1.00", "FEE"],
          [FEES_ONLY, "-2.00", "FEE"],
        ]),
        [],
      );
      expect(breaks.map((b) => [b.class, b.amount, b.detail])).toEqual([
        [
          "missing_in_ledger",
          "1001.00",
          `account ${PAYOUT}: the provider has -1001.00 USD (payout), the ledger has nothing`,
        ],
        [
          "missing_in_ledger",
          "2.00",
          `account ${FEES_ONLY}: the provider has -2.00 USD (fee), the ledger has nothing`,
        ],
      ]);
    });
  });
  it("gives an incremental run the results of a full run as fees and postings come in", async () => {
    // Step 0: the refund's credited fee unbooked, a payout with its fee unbooked.
    const world = (postings: [string, string, string][]) =>
      ({ ...refundWorld(), ledger: accountWorld(postings).ledger }) as GroundTruth;
    const payout: [string, string, string][] = [
      [PAYOUT, "-1000.00", "PAYOUT"],
      [PAYOUT, "-0.13", "FEE"],
    ];
    const lines: Line[] = [
      ["E1", "card_transaction", "K1", "-100.00"],
      ["F1", "fee", "K1", "-1.00", "TRANSACTION"],
      ["E2", "card_transaction", "R1", "30.00"],
    ];
    const first = await match(world(payout), lines);
    expect(first.breaks.map((b) => [b.class, b.amount])).toEqual([
      ["fee_mismatch", "0.30"],
      ["missing_in_ledger", "1000.13"],
    ]);
    const steps: [string, () => Promise<void>][] = [
      [
        "the fee booked, the payout refunded",
        async () => {
          await importLedger(db, csvOf([...lines, ["F2", "fee", "R1", "0.30", "TRANSACTION"]]));
          await storeGroundTruth(
            db,
            world([...payout, [PAYOUT, "1000.13", "PAYOUT_REFUND"]]),
            new Date(AS_OF),
          );
        },
      ],
      [
        "the failed payout booked as 0.00",
        async () => {
          await importLedger(db, csvOf([["A1", "account", PAYOUT, "0.00"]]));
          await markAllFetched(db);
        },
      ],
      [
        "the refund's fee line corrected to the wrong sign",
        async () => {
          await importLedger(db, csvOf([["F2", "fee", "R1", "-0.30", "TRANSACTION"]]));
        },
      ],
    ];
    let asOf = AS_OF;
    for (const [step, change] of steps) {
      await change();
      asOf += 60_000;
      const incremental = await runMatch(db, { ...OPTS, asOf: new Date(asOf) });
      expect({ step, incremental: incremental.incremental }).toEqual({ step, incremental: true });
      const stored = await storedResults(db);
      const full = await runMatch(db, { ...OPTS, asOf: new Date(asOf), full: true });
      expect({ step, difference: storedDifference(stored, await storedResults(db)) }).toEqual({
        step,
        difference: {},
      });
      expect({ step, figures: runFigures(incremental) }).toEqual({
        step,
        figures: runFigures(full),
      });
    }
    const last = await queryText<Break>(
      db,
      `SELECT class, status, entry_id, amount::text AS amount, detail FROM breaks
       WHERE status <> 'resolved' ORDER BY class, entry_id, provider_ref`,
    );
    expect(last.map((b) => [b.class, b.entry_id, b.amount])).toEqual([
      ["fee_mismatch", "F2", "0.60"],
    ]);
  });
});

// Matching as finance books it: the same provider records booked per record, per authorization
// chain, per clearing net of its refunds and per operation gross of its fees; each style clean,
// off by one cent, with a pending authorization booked twice, and with a late status change.
// One real difference gives one break, of the class a finance person would name, with the
// exact difference. PGlite and (with DATABASE_URL) a Postgres server.
import type { GroundTruth } from "@merchantkit/sandbox";
import { describe, expect, it } from "vitest";
import type { Db } from "../db/database";
import { queryText } from "../db/query-rows";
import { importLedger } from "../ledger/import-ledger";
import { testBackends } from "../testing/databases";
import { clearProviderData, storeGroundTruth } from "../testing/ground-truth";
import { type LedgerLine, ledgerCsv } from "../testing/ledger-files";
import { useTestDatabase } from "../testing/use-database";
import { runMatch } from "./run-match";

const AS_OF = Date.parse("2026-06-01T00:00:00Z");
const DAY = 86_400_000;
const at = (msBefore: number) => AS_OF - msBefore;
const iso = (ms: number) => new Date(ms).toISOString();
const CARD = "1953712585351400001";

/** The provider side: a cleared and partly refunded authorization, a pending one, operations. */
function truth(opts: { depositTwoStatus: "P" | "S" }): GroundTruth {
  const txn = (t: Record<string, string | number>) => ({ cardId: CARD, cardCurrency: "USD", ...t });
  const op = (o: Record<string, unknown>) => ({ cardId: CARD, currency: "USD", ...o });
  const posting = (id: string, serviceId: string, amount: string, when: number) => ({
    acntTxnId: id,
    serviceId,
    currency: "USD",
    balanceType: "AVAILABLE",
    amount,
    balanceUpdDate: iso(when),
    businessType: "CARD_DEPOSIT",
  });
  return {
    ledger: {
      transactions: [
        posting("1953712585351410001", "1953712585351420001", "-500.00", at(3 * DAY)),
        posting("1953712585351410002", "1953712585351420001", "-5.00", at(3 * DAY)),
        ...(opts.depositTwoStatus === "S"
          ? [
              posting("1953712585351410003", "1953712585351420002", "-200.00", at(3600_000)),
              posting("1953712585351410004", "1953712585351420002", "-2.00", at(3600_000)),
            ]
          : []),
      ],
    },
    areas: {
      issuing: {
        cardTransactions: [
          txn({
            txnType: "AUTHORIZATION",
            txnStatus: "S",
            txnOrderNo: "A1",
            transactionTime: at(5 * DAY),
            cardAmount: "100.00",
          }),
          txn({
            txnType: "CLEARING",
            txnStatus: "S",
            txnOrderNo: "K1",
            originTxnOrderNo: "A1",
            transactionTime: at(4 * DAY),
            cardAmount: "100.00",
            settleAmount: "100.00",
            settleCurrency: "USD",
            settleTime: at(4 * DAY),
            transactionFee: "1.00",
            transactionFeeCurrency: "USD",
          }),
          txn({
            txnType: "REFUND",
            txnStatus: "S",
            txnOrderNo: "R1",
            originTxnOrderNo: "A1",
            originTxnOrderNoForRefund: "K1",
            transactionTime: at(3 * DAY),
            cardAmount: "30.00",
            settleAmount: "30.00",
            settleCurrency: "USD",
            settleTime: at(3 * DAY),
          }),
          txn({
            txnType: "VERIFICATION",
            txnStatus: "S",
            txnOrderNo: "V1",
            transactionTime: at(3 * DAY),
            cardAmount: "0.00",
          }),
          txn({
            txnType: "AUTHORIZATION",
            txnStatus: "P",
            txnOrderNo: "A2",
            transactionTime: at(3600_000),
            cardAmount: "50.00",
          }),
        ],
        operateRecords: [
          op({
            operateRecordId: "1953712585351420001",
            clientRequestId: "dep-1",
            type: "DEPOSIT",
            status: "S",
            amount: "500.00",
            operateTime: at(3 * DAY),
            feeList: [{ feeType: "DEPOSIT", feeAmount: "5.00", feeCurrency: "USD" }],
          }),
          op({
            operateRecordId: "1953712585351420002",
            clientRequestId: "dep-2",
            type: "DEPOSIT",
            status: opts.depositTwoStatus,
            amount: "200.00",
            operateTime: at(3600_000),
            feeList: [{ feeType: "DEPOSIT", feeAmount: "2.00", feeCurrency: "USD" }],
          }),
        ],
      },
    },
  };
}

type Line = LedgerLine;

// How each style books the cleared chain (A1 → K1 − R1, fee on K1) and the deposits.
const cardLines: Record<string, Line[]> = {
  "per record": [
    ["C1", "card_transaction", "K1", "-100.00"],
    ["C2", "card_transaction", "R1", "30.00"],
    ["C3", "fee", "K1", "-1.00", "TRANSACTION"],
  ],
  chain: [
    ["C1", "card_transaction", "A1", "-70.00"],
    ["C3", "fee", "K1", "-1.00", "TRANSACTION"],
  ],
  net: [
    ["C1", "card_transaction", "K1", "-70.00"],
    ["C3", "fee", "K1", "-1.00", "TRANSACTION"],
  ],
  gross: [
    ["C1", "card_transaction", "K1", "-100.00"],
    ["C2", "card_transaction", "R1", "30.00"],
    ["C3", "fee", "K1", "-1.00", "TRANSACTION"],
  ],
};

const depositLines = (style: string, ref: string, amount: string, fee: string): Line[] =>
  style === "gross"
    ? [[`D-${ref}`, "card_operation", ref, `-${(Number(amount) + Number(fee)).toFixed(2)}`]]
    : [
        [`D-${ref}`, "card_operation", ref, `-${amount}`],
        [`F-${ref}`, "fee", ref, `-${fee}`, "DEPOSIT"],
      ];

function ledgerOf(style: string, edit: (lines: Line[]) => Line[] = (l) => l): string {
  const lines = edit([
    ...(cardLines[style] ?? []),
    ...depositLines(style, "dep-1", "500.00", "5.00"),
    ...depositLines(style, "dep-2", "200.00", "2.00"),
  ]);
  return ledgerCsv(lines, iso(at(2 * DAY)), CARD);
}

type Break = {
  class: string;
  status: string;
  entry_id: string | null;
  amount: string;
};

/** The open breaks and the match groups, each with its records, in one stable list. */
function breaksAndGroups(db: Db) {
  return queryText<Break & { break_id: string; records: string }>(
    db,
    `SELECT b.break_id, b.class, b.status, b.entry_id, b.amount::text AS amount,
       (SELECT string_agg(record_ref, ',' ORDER BY record_ref) FROM break_records r
         WHERE r.break_id = b.break_id) AS records
     FROM breaks b WHERE b.status <> 'resolved'
     UNION ALL SELECT match_id, pass, status, NULL, ledger_amount::text,
       (SELECT string_agg(record_ref, ',' ORDER BY record_ref) FROM match_group_members m
         WHERE m.match_id = g.match_id) FROM match_groups g
     ORDER BY 1`,
  );
}

describe.each(testBackends())("booking styles on %s", (kind) => {
  let db: Db;
  useTestDatabase(kind, (opened) => {
    db = opened.db;
  });

  /**
   * The provider data (fresh unless `keep`: a status can only move forward), the ledger
   * replaced by `csv`, one match run; its unresolved breaks.
   */
  async function match(csv: string, depositTwoStatus: "P" | "S" = "S", keep = false) {
    if (!keep) await clearProviderData(db);
    await storeGroundTruth(db, truth({ depositTwoStatus }), new Date(AS_OF));
    await queryText(db, "DELETE FROM ledger_entries");
    await importLedger(db, csv);
    const run = await runMatch(db, { asOf: new Date(AS_OF) });
    expect(run.reasons).toEqual([]);
    return await queryText<Break>(
      db,
      `SELECT class, status, entry_id, amount::text AS amount FROM breaks
       WHERE status <> 'resolved' ORDER BY class, entry_id`,
    );
  }

  /** The style's ledger with C1 a cent off and the pending authorization A2 booked twice. */
  const centOffAndBookedTwice = (style: string) =>
    ledgerOf(style, (lines) => [
      ...lines.map(
        (l): Line =>
          l[0] === "C1" ? [l[0], l[1], l[2], `${(Number(l[3]) - 0.01).toFixed(2)}`, l[4]] : l,
      ),
      ["P1", "card_transaction", "A2", "-50.00"],
      ["P2", "card_transaction", "A2", "-50.00"],
    ]);

  describe.each(Object.keys(cardLines))("booked %s", (style) => {
    it("matches everything when the ledger is right", async () => {
      expect(await match(ledgerOf(style))).toEqual([]);
    });

    it("reports an entry off by one cent as one amount_mismatch of exactly 0.01", async () => {
      // The style's entry for the cleared chain, or (gross) for the deposit with its fee.
      const target = style === "gross" ? "D-dep-1" : "C1";
      const csv = ledgerOf(style, (lines) =>
        lines.map((l) =>
          l[0] === target ? [l[0], l[1], l[2], `${(Number(l[3]) - 0.01).toFixed(2)}`, l[4]] : l,
        ),
      );
      expect(await match(csv)).toEqual([
        { class: "amount_mismatch", status: "open", entry_id: target, amount: "0.01" },
      ]);
    });

    it("calls a pending authorization booked twice a duplicate, not a status question", async () => {
      const csv = ledgerOf(style, (lines) => [
        ...lines,
        ["P1", "card_transaction", "A2", "-50.00"],
        ["P2", "card_transaction", "A2", "-50.00"],
      ]);
      expect(await match(csv)).toEqual([
        { class: "duplicate_in_ledger", status: "open", entry_id: "P2", amount: "50.00" },
        { class: "status_mismatch", status: "pending", entry_id: "P1", amount: "50.00" },
      ]);
    });

    it("gives the same breaks from a rerun that reuses the last results as from a full run", async () => {
      const csv = centOffAndBookedTwice(style);
      const first = await match(csv);
      const reused = await runMatch(db, { asOf: new Date(AS_OF + 1_000) });
      expect(reused.reusedRunId).not.toBeNull();
      const full = await runMatch(db, { asOf: new Date(AS_OF + 2_000), full: true });
      expect(full.reusedRunId).toBeNull();
      const after = await queryText<Break>(
        db,
        `SELECT class, status, entry_id, amount::text AS amount FROM breaks
         WHERE status <> 'resolved' ORDER BY class, entry_id`,
      );
      expect(after).toEqual(first);
    });

    it("re-matches only what changed, and gives what a full run gives", async () => {
      const csv = centOffAndBookedTwice(style);
      await match(csv, "P");
      // The operation settles late, the cent is corrected, the duplicate deleted.
      await storeGroundTruth(db, truth({ depositTwoStatus: "S" }), new Date(AS_OF));
      await queryText(db, "UPDATE ledger_entries SET amount = amount + 0.01 WHERE entry_id = 'C1'");
      await queryText(db, "DELETE FROM ledger_entries WHERE entry_id = 'P2'");
      const stored = () => breaksAndGroups(db);
      const options = { asOf: new Date(AS_OF + 1_000), maxScopeShare: 1 };
      const incremental = await runMatch(db, options);
      expect(incremental.incremental).toBe(true);
      const after = await stored();
      const full = await runMatch(db, { ...options, full: true });
      expect([full.stats.newBreaks, full.stats.resolvedBreaks]).toEqual([0, 0]);
      expect(await stored()).toEqual(after);
      expect(after.filter((b) => b.class === "amount_mismatch")).toEqual([]);
    });

    it("waits while a booked operation is pending, and matches it once it settles", async () => {
      const pending = await match(ledgerOf(style), "P");
      expect(pending.every((b) => b.status === "pending")).toBe(true);
      expect(pending.map((b) => b.entry_id)).toContain("D-dep-2");
      expect(await match(ledgerOf(style), "S", true)).toEqual([]);
    });
  });

  it("books on a record that moves no money: amount_mismatch of the whole entry; an authorization on top of its booked clearing: duplicate", async () => {
    const csv = ledgerOf("per record", (lines) => [
      ...lines,
      ["V", "card_transaction", "V1", "-1.00"],
      ["A", "card_transaction", "A1", "-100.00"],
    ]);
    expect(await match(csv)).toEqual([
      { class: "amount_mismatch", status: "open", entry_id: "V", amount: "1.00" },
      { class: "duplicate_in_ledger", status: "open", entry_id: "A", amount: "100.00" },
    ]);
  });

  describe("a refund booked on its own key at a wrong amount", () => {
    /** The per-record ledger with K1's entry (C1) and R1's (C2) at these amounts. */
    const perRecord = (k1: string, r1: string) =>
      ledgerOf("per record", (lines) =>
        lines.map((l): Line => {
          const amount = l[0] === "C1" ? k1 : l[0] === "C2" ? r1 : l[3];
          return [l[0], l[1], l[2], amount, l[4]];
        }),
      );

    it("compares each entry with its own record, not the clearing's entry with the net (both off)", async () => {
      // K1 booked −75.00 (is −100.00), R1 +35.00 (is +30.00): nearer K1 net of R1 (−70.00)
      // than K1 alone, but R1's entry books R1, so K1's is measured against K1 alone, and R1's
      // is no duplicate.
      expect(await match(perRecord("-75.00", "35.00"))).toEqual([
        { class: "amount_mismatch", status: "open", entry_id: "C1", amount: "25.00" },
        { class: "amount_mismatch", status: "open", entry_id: "C2", amount: "5.00" },
      ]);
    });

    it("compares each entry with its own record when both signs are flipped", async () => {
      expect(await match(perRecord("100.00", "-30.00"))).toEqual([
        { class: "amount_mismatch", status: "open", entry_id: "C1", amount: "200.00" },
        { class: "amount_mismatch", status: "open", entry_id: "C2", amount: "60.00" },
      ]);
    });

    it("re-matches the clearing's net when the refund's own entry comes and goes, as a full run does", async () => {
      const stored = () => breaksAndGroups(db);
      // Net: K1's entry books K1 with R1 (−70.00), one match group.
      expect(await match(ledgerOf("net"))).toEqual([]);
      let asOf = AS_OF;
      const incrementalThenFull = async () => {
        asOf += 1_000;
        const options = { asOf: new Date(asOf), maxScopeShare: 1 };
        const incremental = await runMatch(db, options);
        expect(incremental.incremental).toBe(true);
        const after = await stored();
        asOf += 1_000;
        const full = await runMatch(db, { ...options, asOf: new Date(asOf), full: true });
        expect([full.stats.newBreaks, full.stats.resolvedBreaks]).toEqual([0, 0]);
        expect(await stored()).toEqual(after);
        return after;
      };
      // R1 gets an entry of its own, off by 5.00: K1's −70.00 is now K1 alone, 30.00 off.
      await importLedger(
        db,
        `entry_id,kind,provider_ref,amount,currency,booked_at,fee_type,card_id,description\nC2,card_transaction,R1,35.00,USD,${iso(at(2 * DAY))},,${CARD},`,
      );
      const booked = await incrementalThenFull();
      // Each entry against its own record (no net group, no duplicate).
      expect(
        booked.map(({ break_id: _, ...b }) => b).sort((a, b) => a.records.localeCompare(b.records)),
      ).toEqual([
        {
          class: "amount_mismatch",
          status: "open",
          entry_id: "C1",
          amount: "30.00",
          records: "C1,K1",
        },
        {
          class: "amount_mismatch",
          status: "open",
          entry_id: "C2",
          amount: "5.00",
          records: "C2,R1",
        },
      ]);
      // The entry is deleted again: K1 is booked net of R1 once more.
      await queryText(db, "DELETE FROM ledger_entries WHERE entry_id = 'C2'");
      expect(await incrementalThenFull()).toEqual([
        {
          break_id: "net:K1",
          class: "chain",
          status: "confirmed",
          entry_id: null,
          amount: "-70.00",
          records: "C1,K1,R1",
        },
      ]);
    });
  });

  describe("a rerun with nothing changed", () => {
    const breaksNow = () =>
      queryText<Break & { break_id: string }>(
        db,
        `SELECT break_id, class, status, entry_id, amount::text AS amount FROM breaks
         WHERE status <> 'resolved' ORDER BY break_id`,
      );
    // Far from "now" the sync would look late; these runs are about the matcher alone.
    const at = (ms: number, full = false) =>
      runMatch(db, { asOf: new Date(ms), maxSyncLagMs: 30 * DAY, full });

    it("reuses the last results until data, options or time change them", async () => {
      await match(ledgerOf("per record"), "P"); // dep-2 pending: a grace that ends
      const first = await at(AS_OF + 60_000);
      expect(first.reusedRunId).toBeNull(); // other options than the run before: matched again
      const second = await at(AS_OF + 120_000);
      expect(second.reusedRunId).toBe(first.runId);
      expect(second.stats.openBreaks).toBe(first.stats.openBreaks);
      const kept = await breaksNow();

      // Time alone: the pending status grace of dep-2 ends, so the run matches again...
      const later = await at(AS_OF + 3 * DAY);
      expect(later.reusedRunId).toBeNull();
      const afterGrace = await breaksNow();
      expect(afterGrace).not.toEqual(kept);
      expect(afterGrace.some((b) => b.entry_id === "D-dep-2" && b.status === "open")).toBe(true);
      // ... and gives what a full run gives.
      const full = await at(AS_OF + 3 * DAY, true);
      expect(full.reusedRunId).toBeNull();
      expect(await breaksNow()).toEqual(afterGrace);

      // Data: one more ledger entry makes the next run match again.
      expect((await at(AS_OF + 3 * DAY + 1)).reusedRunId).not.toBeNull();
      await importLedger(
        db,
        `entry_id,kind,provider_ref,amount,currency,booked_at,fee_type,card_id,description\nX1,card_transaction,NOPE,-9.99,USD,${iso(AS_OF)},,,`,
      );
      const changed = await at(AS_OF + 3 * DAY + 2);
      expect(changed.reusedRunId).toBeNull();
      expect((await breaksNow()).some((b) => b.entry_id === "X1")).toBe(true);
    });

    it("matches everything after an incomplete run that wrote its results", async () => {
      await match(ledgerOf("per record"));
      const done = await at(AS_OF + 60_000);
      expect((await at(AS_OF + 60_001)).reusedRunId).toBe(done.runId);
      // A run that finds the sync late but writes anyway drops the change log, so the next
      // run can neither reuse nor build on the last complete one.
      const incomplete = await runMatch(db, {
        asOf: new Date(AS_OF + 60_002),
        maxSyncLagMs: 1,
        onIncomplete: "all",
      });
      expect(incomplete).toMatchObject({ verdict: "incomplete", persisted: true });
      const next = await at(AS_OF + 60_003);
      expect(next).toMatchObject({ reusedRunId: null, incremental: false });
      expect(next.verdict).not.toBe("incomplete");
    });
  });
});

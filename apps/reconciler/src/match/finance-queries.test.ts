// The finance views and the documented queries (docs/finance-queries.md) on a small ground truth
// built for them: their days are UTC days whatever the session's TimeZone (the worker's
// statement.csv is written from a UTC session), and a fee booked inside an operation's gross
// entry counts as booked, as matching counts it. PGlite and (with DATABASE_URL) a Postgres server.
import type { GroundTruth } from "@merchantkit/sandbox";
import { describe, expect, it } from "vitest";
import type { Db } from "../db/database";
import { queryText } from "../db/query-rows";
import { importLedger } from "../ledger/import-ledger";
import { testBackends } from "../testing/databases";
import { documentedQueries } from "../testing/documented-queries";
import { storeGroundTruth } from "../testing/ground-truth";
import { useTestDatabase } from "../testing/use-database";
import { runMatch } from "./run-match";

const AS_OF = Date.parse("2026-06-01T00:00:00Z");
const CARD = "1953712585351400001";
const HEADER = "entry_id,kind,provider_ref,amount,currency,booked_at,fee_type,card_id,description";

// Times a few hours from a UTC midnight: another day in New York (UTC-4) or in Tokyo (UTC+9).
const EARLY = Date.parse("2026-05-20T02:30:00Z"); // 2026-05-19 in New York
const LATE = Date.parse("2026-05-20T20:00:00Z"); // 2026-05-21 in Tokyo
const LAST = Date.parse("2026-05-31T22:00:00Z"); // 2026-06-01 in Tokyo
// Last month's clearing, booked with its fee: no month's question of May may count it.
const APRIL = Date.parse("2026-04-25T12:00:00Z");
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Clearings with fees at EARLY (booked per record), LATE (booked) and LAST (not booked: a
 * pending missing_in_ledger break on a day near midnight); three deposits with a DEPOSIT fee each,
 * booked gross (dep-1), per record with a fee line (dep-2) and gross a cent off (dep-3).
 */
function truth(): GroundTruth {
  const clearing = (txnOrderNo: string, amount: string, at: number, fee: string) => ({
    cardId: CARD,
    cardCurrency: "USD",
    txnType: "CLEARING",
    txnStatus: "S",
    txnOrderNo,
    transactionTime: at,
    cardAmount: amount,
    settleAmount: amount,
    settleCurrency: "USD",
    settleTime: at,
    transactionFee: fee,
    transactionFeeCurrency: "USD",
  });
  const deposit = (n: number, amount: string, fee: string, at: number) => ({
    operateRecordId: `19537125853514200${n}0`,
    clientRequestId: `dep-${n}`,
    cardId: CARD,
    currency: "USD",
    type: "DEPOSIT",
    status: "S",
    amount,
    operateTime: at,
    feeList: [{ feeType: "DEPOSIT", feeAmount: fee, feeCurrency: "USD" }],
  });
  const postings = (n: number, amount: string, fee: string, at: number) =>
    [amount, fee].map((a, i) => ({
      acntTxnId: `19537125853514100${n}${i}`,
      serviceId: `19537125853514200${n}0`,
      currency: "USD",
      balanceType: "AVAILABLE",
      amount: `-${a}`,
      balanceUpdDate: iso(at),
      businessType: "CARD_DEPOSIT",
    }));
  return {
    ledger: {
      transactions: [
        ...postings(1, "500.00", "5.00", EARLY),
        ...postings(2, "200.00", "2.00", LATE),
        ...postings(3, "300.00", "3.00", LATE),
      ],
    },
    areas: {
      issuing: {
        cardTransactions: [
          clearing("K0", "10.00", APRIL, "0.30"),
          clearing("K1", "100.00", EARLY, "1.00"),
          clearing("K2", "40.00", LATE, "0.50"),
          clearing("K3", "60.00", LAST, "0.70"),
        ],
        operateRecords: [
          deposit(1, "500.00", "5.00", EARLY),
          deposit(2, "200.00", "2.00", LATE),
          deposit(3, "300.00", "3.00", LATE),
        ],
      },
    },
  } as unknown as GroundTruth;
}

const LEDGER = [
  HEADER,
  `C0,card_transaction,K0,-10.00,USD,2026-04-25,,${CARD},`,
  `F0,fee,K0,-0.30,USD,2026-04-25,TRANSACTION,${CARD},`,
  `C1,card_transaction,K1,-100.00,USD,2026-05-20,,${CARD},`,
  `F1,fee,K1,-1.00,USD,2026-05-20,TRANSACTION,${CARD},`,
  `C2,card_transaction,K2,-40.00,USD,${iso(LATE)},,${CARD},`,
  `F2,fee,K2,-0.50,USD,${iso(LATE)},TRANSACTION,${CARD},`,
  `D1,card_operation,dep-1,-505.00,USD,${iso(EARLY)},,${CARD},deposit incl. fees`,
  `D2,card_operation,dep-2,-200.00,USD,${iso(LATE)},,${CARD},deposit`,
  `G2,fee,dep-2,-2.00,USD,${iso(LATE)},DEPOSIT,${CARD},deposit fee`,
  `D3,card_operation,dep-3,-303.01,USD,${iso(LATE)},,${CARD},deposit incl. fees`,
].join("\n");

describe.each(testBackends())("finance views and queries on %s", (kind) => {
  let db: Db;
  useTestDatabase(kind, (opened) => {
    db = opened.db;
  });
  const queries = documentedQueries();

  /** Rows of `text` in a session (a transaction) whose TimeZone is `zone`. */
  const inZone = (zone: string, text: string) =>
    db.transaction(async (tx) => {
      await queryText(tx as unknown as Db, `SET LOCAL TimeZone = '${zone}'`);
      return await queryText(tx as unknown as Db, text);
    });

  it("matches the ground truth: dep-3 a cent off, K3 not booked (pending), nothing else", async () => {
    await storeGroundTruth(db, truth(), new Date(AS_OF));
    await importLedger(db, LEDGER);
    const run = await runMatch(db, { asOf: new Date(AS_OF) });
    expect(run.reasons).toEqual([]);
    const breaks = await queryText(
      db,
      `SELECT class, provider_ref, entry_id, amount::text AS amount FROM breaks
       WHERE status <> 'resolved' ORDER BY class, provider_ref`,
    );
    expect(breaks).toEqual([
      { class: "amount_mismatch", provider_ref: "dep-3", entry_id: "D3", amount: "0.01" },
      // K3 with its fees, as the statement explains it.
      { class: "missing_in_ledger", provider_ref: "K3", entry_id: null, amount: "60.70" },
    ]);
  });

  it("takes every day in UTC, whatever the session's TimeZone", async () => {
    const dayQueries = {
      statementLines: `SELECT day::text, side, record_ref, explanation FROM finance_statement_lines
        ORDER BY record_ref, side`,
      dailyStatement: `SELECT * FROM finance_daily_statement ORDER BY day, currency`,
      feesByType: `SELECT * FROM finance_fees_by_type ORDER BY day, fee_type, currency`,
      q2: queries.get(2) ?? "",
      q6: queries.get(6) ?? "",
      q7: queries.get(7) ?? "",
    };
    const answers = async (zone: string) => {
      const out: Record<string, unknown> = {};
      for (const [name, text] of Object.entries(dayQueries)) out[name] = await inZone(zone, text);
      return out;
    };
    const utc = await answers("UTC");
    // The days are UTC days: an entry booked 2026-05-20 (midnight UTC) is on 2026-05-20, as
    // are the records of 02:30 and 20:00 UTC that day; K3 (22:00 UTC) is the last day's.
    const lines = utc.statementLines as { day: string; side: string; record_ref: string }[];
    const dayOf = (ref: string, side = "ledger") =>
      lines.find((l) => l.record_ref === ref && l.side === side)?.day;
    expect([dayOf("C1"), dayOf("K1", "provider"), dayOf("K2", "provider")]).toEqual([
      "2026-05-20",
      "2026-05-20",
      "2026-05-20",
    ]);
    expect(utc.q2).toEqual([expect.objectContaining({ day: "2026-05-31", currency: "USD" })]);
    expect(utc.q7).toEqual([
      { day: "2026-05-31", currency: "USD", status: "pending", records: "1", amount: "60.70" },
    ]);
    for (const zone of ["America/New_York", "Asia/Tokyo"])
      expect({ zone, ...(await answers(zone)) }).toEqual({ zone, ...utc });
  });

  it("leaves an accepted missing_in_ledger break out of question 7", async () => {
    const before = await queryText(db, queries.get(7) ?? "");
    expect(before).toEqual([expect.objectContaining({ status: "pending", records: "1" })]);
    const [k3] = await queryText<{ break_id: string }>(
      db,
      "SELECT break_id FROM breaks WHERE provider_ref = 'K3' AND class = 'missing_in_ledger'",
    );
    await queryText(
      db,
      `INSERT INTO break_workflow (break_id, accepted_at, accepted_by, accepted_reason, accepted_class,
         accepted_amount, accepted_currency, last_action, last_actor, last_action_at)
       SELECT break_id, now(), 'test', 'booked next month', class, amount, currency, 'accept',
         'test', now() FROM breaks WHERE break_id = '${k3?.break_id}'`,
    );
    expect(await queryText(db, queries.get(7) ?? "")).toEqual([]);
    await queryText(db, `DELETE FROM break_workflow WHERE break_id = '${k3?.break_id}'`);
  });

  it("answers question 11 (this month's acceptances) by the UTC month", async () => {
    const [b] = await queryText<{ break_id: string }>(
      db,
      "SELECT break_id FROM breaks WHERE status = 'open' ORDER BY break_id LIMIT 1",
    );
    // Accepted two hours before and one hour after this UTC month began: last month and this
    // month in UTC, this month in Tokyo (UTC+9) and last month in New York (UTC-4/-5).
    for (const [hours, text] of [
      [-2, "last month"],
      [1, "this month"],
    ] as const)
      await queryText(
        db,
        `INSERT INTO break_actions (break_id, actor, at, action, text, class, amount, currency)
         SELECT break_id, 'test', date_trunc('month', now(), 'UTC') + interval '${hours} hours',
           'accept', '${text}', class, amount, currency FROM breaks WHERE break_id = '${b?.break_id}'`,
      );
    await queryText(
      db,
      `INSERT INTO break_workflow (break_id, accepted_at, accepted_by, accepted_reason, accepted_class,
         accepted_amount, accepted_currency, last_action, last_actor, last_action_at)
       SELECT break_id, now(), 'test', 'this month', class, amount, currency, 'accept', 'test', now()
       FROM breaks WHERE break_id = '${b?.break_id}'`,
    );
    for (const zone of ["UTC", "America/New_York", "Asia/Tokyo"]) {
      const rows = await inZone(zone, queries.get(11) ?? "");
      expect({ zone, reasons: rows.map((r) => r.reason) }).toEqual({
        zone,
        reasons: ["this month"],
      });
    }
  });

  it("counts this month's fees (question 6), those of an operation booked gross of them as booked", async () => {
    // As of late on May 31 (UTC): May's fees, not April's (K0), whatever the session's zone.
    await runMatch(db, { asOf: new Date(Date.parse("2026-05-31T23:00:00Z")) });
    const q6 = await queryText(db, queries.get(6) ?? "");
    for (const zone of ["America/New_York", "Asia/Tokyo"])
      expect(await inZone(zone, queries.get(6) ?? "")).toEqual(q6);
    expect(q6).toEqual([
      {
        fee_type: "DEPOSIT",
        currency: "USD",
        provider: "-10.00",
        ledger: "-10.00",
        difference: "0.00",
        in_gross_entries: "-8.00",
      },
      {
        fee_type: "TRANSACTION",
        currency: "USD",
        provider: "-2.20",
        ledger: "-1.50",
        difference: "-0.70",
        in_gross_entries: "0",
      },
    ]);
  });
});

// Incremental matching and the tolerant pass: a record the pass paired moves out of reach, its
// entry takes the next closest record, and the entry that record was proposed to, two steps
// from the change, loses its proposal (closest first, passes/tolerant.ts). The incremental run
// must take that entry into its scope although nothing about it changed (TOLERANT_REACH,
// incremental/scope.ts). On PGlite and a Postgres server.
import { describe, expect, it } from "vitest";
import type { Db } from "../db/database";
import { queryText } from "../db/query-rows";
import { testBackends } from "../testing/databases";
import { useTestDatabase } from "../testing/use-database";
import { runMatch } from "./run-match";

const DAY = 86_400_000;
const T = Date.parse("2026-05-01T12:00:00Z");
const AS_OF = new Date(T + 30 * DAY);
const at = (days: number) => new Date(T + days * DAY).toISOString();

/** A settled clearing on card 900 (USD), not booked under its own key. */
const clearing = (no: string, amount: string, days: number) =>
  `('${no}', '900', 'CLEARING', 'S', '${at(days)}', ${amount}, 'USD', ${amount}, 'USD', '${at(days)}',
    '{}', '0', 1, 'sync')`;
/** An entry on card 900 naming a key the provider does not have: only the tolerant pass pairs it. */
const entry = (id: string, amount: string, days: number) =>
  `('${id}', 'card_transaction', 'X-${id}', ${amount}, 'USD', '${at(days)}', '900')`;

describe.each(testBackends())("incremental tolerant matching on %s", (kind) => {
  let db: Db;
  useTestDatabase(kind, (opened) => {
    db = opened.db;
  });

  const proposals = () =>
    queryText<{ match_id: string; record_ref: string }>(
      db,
      `SELECT match_id, record_ref FROM match_group_members ORDER BY match_id, record_ref`,
    );
  const options = { asOf: AS_OF, maxSyncLagMs: 30 * DAY, maxScopeShare: 1 };

  it("re-pairs the records two steps from the one that moved", async () => {
    await queryText(
      db,
      `INSERT INTO card_transactions (txn_order_no, card_id, txn_type, txn_status, transaction_time,
         card_amount, card_currency, settle_amount, settle_currency, settle_time, raw, raw_hash,
         version, source)
       VALUES ${clearing("P0", "10.00", 10)}, ${clearing("P1", "50.00", 0)},
         ${clearing("P2", "50.50", 0)}`,
    );
    await queryText(
      db,
      `INSERT INTO ledger_entries (entry_id, kind, provider_ref, amount, currency, booked_at, card_id)
       VALUES ('E0', 'card_transaction', 'P0', -10.00, 'USD', '${at(10)}', '900'),
         ${entry("E1", "-50.10", 0)}, ${entry("E2", "-50.95", 0)}`,
    );
    for (const stream of ["card_transactions", "operate_records", "account_transactions"])
      await queryText(
        db,
        `INSERT INTO sync_watermarks (stream, watermark) VALUES ('${stream}', '${AS_OF.toISOString()}')
         ON CONFLICT DO NOTHING`,
      );
    // E0 books P0 exactly (an incremental run builds on stored pairs). Closest first: E1–P1
    // (0.10 apart), then E2–P2 (0.45); E1–P2 (0.40) and E2–P1 (0.95) lose their records.
    await runMatch(db, options);
    expect(await proposals()).toEqual([
      { match_id: "proposed:E1", record_ref: "E1" },
      { match_id: "proposed:E1", record_ref: "P1" },
      { match_id: "proposed:E2", record_ref: "E2" },
      { match_id: "proposed:E2", record_ref: "P2" },
    ]);

    // P1 settles three weeks later: out of everyone's reach. E1 now takes P2, nearer to it than
    // to E2, which is left without a proposal.
    await queryText(
      db,
      `UPDATE card_transactions SET settle_time = '${at(21)}' WHERE txn_order_no = 'P1'`,
    );
    const incremental = await runMatch(db, options);
    expect(incremental.incremental).toBe(true);
    const after = await proposals();
    expect(after).toEqual([
      { match_id: "proposed:E1", record_ref: "E1" },
      { match_id: "proposed:E1", record_ref: "P2" },
    ]);
    await runMatch(db, { ...options, full: true });
    expect(await proposals()).toEqual(after);
  });
});

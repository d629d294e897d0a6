// Manual matches (workflow/manual-match.ts, passes/manual-matches.ts): entries and records no
// pass paired, matched by a person, become one match group (pass manual) in every run, an
// incremental run giving what a full run gives; each break they were in is audited; a record
// that changes lapses the match (audited, the breaks come back); unmatch undoes it; what would
// leave a difference or mix currencies is refused naming the field. The currency bridge stays
// tied throughout. On PGlite and a Postgres server.
import { decimalEquals } from "@merchantkit/core";
import { describe, expect, it } from "vitest";
import type { Db } from "../db/database";
import { queryText } from "../db/query-rows";
import { testBackends } from "../testing/databases";
import { documentedQueries } from "../testing/documented-queries";
import { runIncrementalThenFull } from "../testing/run-both";
import { useTestDatabase } from "../testing/use-database";
import { matchManually, unmatchManually } from "../workflow/manual-match";
import { WorkflowError } from "../workflow/workflow-error";
import { runMatch } from "./run-match";

const DAY = 86_400_000;
const T = Date.parse("2026-05-01T12:00:00Z");
const AS_OF = new Date(T + 30 * DAY);
const at = (days: number) => new Date(T + days * DAY).toISOString();

/** A settled clearing on card 900. */
const clearing = (no: string, amount: string, currency = "USD") =>
  `('${no}', '900', 'CLEARING', 'S', '${at(0)}', ${amount}, '${currency}', ${amount}, '${currency}',
    '${at(0)}', '{}', '0', 1, 'sync')`;
/** An entry on card 900 naming a key the provider does not have. */
const entry = (id: string, amount: string, currency = "USD", day = 0) =>
  `('${id}', 'card_transaction', 'X-${id}', ${amount}, '${currency}', '${at(day)}', '900')`;

const refused = async (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => (error instanceof WorkflowError ? error : undefined),
  );

describe.each(testBackends())("manual matches on %s", (kind) => {
  let db: Db;
  useTestDatabase(kind, (opened) => {
    db = opened.db;
  });
  const options = { asOf: AS_OF, maxSyncLagMs: 30 * DAY, maxScopeShare: 1 };

  const results = async () => ({
    groups: await queryText(
      db,
      `SELECT g.match_id, g.pass, g.status, m.record_ref FROM match_groups g
        JOIN match_group_members m ON m.match_id = g.match_id ORDER BY g.match_id, m.record_ref`,
    ),
    breaks: await queryText(
      db,
      `SELECT class, coalesce(entry_id, provider_ref) AS ref, amount::text AS amount FROM breaks
        WHERE status <> 'resolved' ORDER BY class, ref`,
    ),
  });
  /** An incremental run, then a full one: both must leave the same results. */
  const runBoth = () => runIncrementalThenFull(db, options, results);
  /** Every currency's difference is explained to the cent (nothing unexplained). */
  const bridgeTies = async () => {
    const rows = await queryText<Record<string, string>>(
      db,
      `SELECT currency, difference::text AS difference,
        (timing + open_breaks + pending + accepted + unexplained)::text AS explained,
        unexplained::text AS unexplained FROM finance_currency_bridge ORDER BY currency`,
    );
    for (const r of rows) {
      expect(decimalEquals(r.unexplained as string, "0"), r.currency).toBe(true);
      expect(r.explained, r.currency).toBe(r.difference);
    }
    return rows;
  };
  const history = () =>
    queryText(db, "SELECT break_id, actor, action, text FROM break_actions ORDER BY id");
  const manual = (entries: string[], records: string[], reason = "paid in two parts") =>
    matchManually(db, { entries, records, actor: "alice", reason });

  it("matches two entries with one record in every run, audited on each break", async () => {
    await queryText(
      db,
      `INSERT INTO card_transactions (txn_order_no, card_id, txn_type, txn_status, transaction_time,
         card_amount, card_currency, settle_amount, settle_currency, settle_time, raw, raw_hash,
         version, source)
       VALUES ${clearing("P0", "10.00")}, ${clearing("P1", "50.00")}, ${clearing("P2", "7.00", "EUR")}`,
    );
    await queryText(
      db,
      `INSERT INTO ledger_entries (entry_id, kind, provider_ref, amount, currency, booked_at, card_id)
       VALUES ('E0', 'card_transaction', 'P0', -10.00, 'USD', '${at(0)}', '900'),
         ${entry("E1", "-30.00", "USD", 9)}, ${entry("E2", "-20.00", "USD", 9)},
         ${entry("E3", "-7.00", "USD", 9)}`,
    );
    for (const stream of ["card_transactions", "operate_records", "account_transactions"])
      await queryText(
        db,
        `INSERT INTO sync_watermarks (stream, watermark) VALUES ('${stream}', '${AS_OF.toISOString()}')
         ON CONFLICT DO NOTHING`,
      );
    await runMatch(db, options);
    const before = await results();
    expect(before.breaks.map((b) => [b.class, b.ref])).toEqual([
      ["missing_at_provider", "E1"],
      ["missing_at_provider", "E2"],
      ["missing_at_provider", "E3"],
      ["missing_in_ledger", "P1"],
      ["missing_in_ledger", "P2"],
    ]);
    const breakIds = (
      await queryText<{ break_id: string }>(
        db,
        `SELECT break_id FROM breaks WHERE coalesce(entry_id, provider_ref) IN ('E1', 'E2', 'P1')
          ORDER BY break_id`,
      )
    ).map((b) => b.break_id);

    // Refused, naming the field and the rule, with nothing written.
    const cases: [() => Promise<unknown>, string, RegExp][] = [
      [() => manual(["E9"], ["P1"]), "entries", /no ledger entry has the id E9/],
      [() => manual(["E1"], ["P9"]), "records", /no provider record has the id P9/],
      [
        () => manual(["E0"], ["P1"]),
        "entries",
        /E0 is already paired \(exact:card_transaction:P0\)/,
      ],
      [() => manual(["E1"], ["P0"]), "records", /P0 is already paired/],
      [() => manual(["E3"], ["P2"]), "records", /one currency; these are in EUR, USD/],
      [
        () => manual(["E1"], ["P1"]),
        "records",
        /sides differ: provider records -50.00 USD, ledger entries -30.00 USD \(difference -20.00 USD\)/,
      ],
      [() => manual([], ["P1"]), "entries", /entries is required/],
      [() => manual(["E1", "E1"], ["P1"]), "entries", /names E1 twice/],
      [() => manual(["E1", "E2"], ["P1"], " "), "reason", /reason is required/],
    ];
    for (const [attempt, field, message] of cases) {
      const error = await refused(attempt());
      expect([error?.field, error?.message]).toEqual([field, expect.stringMatching(message)]);
    }
    expect(await history()).toEqual([]);
    expect(await queryText(db, "SELECT id FROM manual_matches")).toEqual([]);

    const made = await manual(["E1", "E2"], ["P1"]);
    expect(made).toEqual({ matchId: "1", currency: "USD", amount: "-50.00", breakIds });
    // A record already in an active manual match is not matched twice.
    const twice = await refused(manual(["E2"], ["P1"]));
    expect(twice?.message).toMatch(/entries: entry E2 is already in manual match 1/);

    const after = await runBoth();
    expect(after.groups).toEqual(
      ["E1", "E2", "P1"].map((ref) => ({
        match_id: "manual:1",
        pass: "manual",
        status: "confirmed",
        record_ref: ref,
      })),
    );
    expect(after.breaks.map((b) => [b.class, b.ref])).toEqual([
      ["missing_at_provider", "E3"],
      ["missing_in_ledger", "P2"],
    ]);
    expect(await history()).toEqual(
      breakIds.map((id) => ({
        break_id: id,
        actor: "alice",
        action: "match",
        text: "manual match 1 (entries E1, E2; records P1): paid in two parts",
      })),
    );
    // The pairs and statement views mark it: pass manual in matches, its legs matched.
    expect(
      await queryText(
        db,
        "SELECT match_id, pass, provider_amount::text AS p, ledger_amount::text AS l FROM matches WHERE pass = 'manual'",
      ),
    ).toEqual([{ match_id: "manual:1", pass: "manual", p: "-50.00", l: "-50.00" }]);
    await bridgeTies();
    // Finance query 15 lists it, applied, with its records.
    const q15 = await queryText(db, documentedQueries().get(15) ?? "");
    expect(q15.map((r) => [r.id, r.status, r.records, r.applied])).toEqual([
      ["1", "active", "ledger E1, ledger E2, provider P1", true],
    ]);
    // Unchanged records keep it run after run.
    await runMatch(db, { ...options, full: true });
    expect(await results()).toEqual(after);
  }, 120_000);

  it("lapses when a record changes: audited, the breaks come back", async () => {
    await queryText(db, "UPDATE ledger_entries SET amount = -21.00 WHERE entry_id = 'E2'");
    const after = await runBoth();
    expect(after.groups).toEqual([]);
    expect(after.breaks.map((b) => [b.class, b.ref])).toEqual([
      ["missing_at_provider", "E1"],
      ["missing_at_provider", "E2"],
      ["missing_at_provider", "E3"],
      ["missing_in_ledger", "P1"],
      ["missing_in_ledger", "P2"],
    ]);
    const [m] = await queryText(
      db,
      "SELECT status, ended_by, ended_reason FROM manual_matches WHERE id = 1",
    );
    expect(m).toMatchObject({
      status: "lapsed",
      ended_by: "reconciler",
      ended_reason: expect.stringMatching(
        /^a record changed: ledger E2 changed from -20.00 USD to -21.00 USD \(match run /,
      ),
    });
    const lapses = await queryText(
      db,
      "SELECT actor, text FROM break_actions WHERE action = 'lapse' ORDER BY id",
    );
    expect(lapses).toHaveLength(3);
    expect(lapses[0]).toMatchObject({
      actor: "reconciler",
      text: expect.stringMatching(/^manual match 1 lapsed: a record changed: ledger E2/),
    });
    // A lapsed match cannot be unmatched; its records can be matched again.
    const gone = await refused(unmatchManually(db, { matchId: "1", actor: "bob", reason: "x" }));
    expect(gone?.message).toMatch(/manual match 1 is already lapsed \(by reconciler at /);
    await bridgeTies();
  }, 120_000);

  it("unmatch undoes a manual match: the breaks come back, audited", async () => {
    await queryText(db, "UPDATE ledger_entries SET amount = -20.00 WHERE entry_id = 'E2'");
    await runMatch(db, options);
    const made = await manual(["E1", "E2"], ["P1"], "again");
    expect(made.matchId).toBe("2");
    expect((await runBoth()).groups.map((g) => g.match_id)).toEqual([
      "manual:2",
      "manual:2",
      "manual:2",
    ]);
    const bad = await refused(unmatchManually(db, { matchId: "two", actor: "bob", reason: "x" }));
    expect([bad?.field, bad?.message]).toEqual(["matchId", expect.stringMatching(/digits/)]);
    const unknown = await refused(
      unmatchManually(db, { matchId: "99", actor: "bob", reason: "x" }),
    );
    expect(unknown?.message).toMatch(/no manual match has the id 99/);
    const undone = await unmatchManually(db, {
      matchId: "manual:2",
      actor: "bob",
      reason: "wrong card",
    });
    expect(undone.breakIds).toHaveLength(3);
    const after = await runBoth();
    expect(after.groups).toEqual([]);
    expect(after.breaks.map((b) => b.ref)).toEqual(["E1", "E2", "E3", "P1", "P2"]);
    const last = await queryText(
      db,
      "SELECT actor, action, text FROM break_actions ORDER BY id DESC LIMIT 3",
    );
    expect(last).toEqual(
      Array(3).fill({ actor: "bob", action: "unmatch", text: "manual match 2 undone: wrong card" }),
    );
    const [m] = await queryText(db, "SELECT status, ended_by FROM manual_matches WHERE id = 2");
    expect(m).toEqual({ status: "unmatched", ended_by: "bob" });
    await bridgeTies();
  }, 120_000);

  it("refuses to pair one entity's entry with another entity's record, nothing written", async () => {
    // ES is the sub-merchant SUB1's entry; P1 (back in its break since the unmatch) the merchant's.
    await queryText(
      db,
      `INSERT INTO ledger_entries (entry_id, kind, provider_ref, amount, currency, booked_at,
         card_id, entity) VALUES ('ES', 'card_transaction', 'X-ES', -50.00, 'USD', '${at(9)}', '900', 'SUB1')`,
    );
    await runMatch(db, options);
    const before = await history();
    const error = await refused(manual(["ES"], ["P1"]));
    expect([error?.code, error?.field, error?.message]).toEqual([
      "invalid",
      "records",
      "records: a manual match holds one entity's records (an entry of one entity never pairs with a posting of another); these are of SUB1 (ES), the merchant itself (P1)",
    ]);
    const mixedEntries = await refused(manual(["ES", "E1"], ["P1"]));
    expect([mixedEntries?.field, mixedEntries?.message]).toEqual([
      "entries",
      "entries: a manual match holds one entity's records (an entry of one entity never pairs with a posting of another); these are of SUB1 (ES), the merchant itself (E1, P1)",
    ]);
    expect(await history()).toEqual(before);
    expect(await queryText(db, "SELECT id FROM manual_matches WHERE status = 'active'")).toEqual(
      [],
    );
  }, 120_000);
});

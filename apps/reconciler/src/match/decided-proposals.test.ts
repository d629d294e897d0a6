// Finance's decisions on proposals (workflow/decide-proposal.ts, passes/decided-proposals.ts): a
// confirmed proposal becomes a match group with both records, a rejected one the breaks its
// records make without it; both kept by later runs, an incremental run giving what a full run
// gives; a decision lapses when a record changes its amount. On PGlite and a Postgres server.
import { describe, expect, it } from "vitest";
import type { Db } from "../db/database";
import { queryText } from "../db/query-rows";
import { testBackends } from "../testing/databases";
import { documentedQueries } from "../testing/documented-queries";
import { runIncrementalThenFull } from "../testing/run-both";
import { useTestDatabase } from "../testing/use-database";
import { decideProposal } from "../workflow/decide-proposal";
import { WorkflowError } from "../workflow/workflow-error";
import { runMatch } from "./run-match";

const DAY = 86_400_000;
const T = Date.parse("2026-05-01T12:00:00Z");
const AS_OF = new Date(T + 30 * DAY);
const at = (days: number) => new Date(T + days * DAY).toISOString();

/** A settled clearing on card 900 (USD). */
const clearing = (no: string, amount: string) =>
  `('${no}', '900', 'CLEARING', 'S', '${at(0)}', ${amount}, 'USD', ${amount}, 'USD', '${at(0)}',
    '{}', '0', 1, 'sync')`;
/** An entry on card 900 naming a key the provider does not have: only the tolerant pass pairs it. */
const entry = (id: string, amount: string) =>
  `('${id}', 'card_transaction', 'X-${id}', ${amount}, 'USD', '${at(0)}', '900')`;

describe.each(testBackends())("decided proposals on %s", (kind) => {
  let db: Db;
  useTestDatabase(kind, (opened) => {
    db = opened.db;
  });
  const options = { asOf: AS_OF, maxSyncLagMs: 30 * DAY, maxScopeShare: 1 };

  /** The stored results a person sees: groups with their records, and the unresolved breaks. */
  const results = async () => ({
    groups: await queryText(
      db,
      `SELECT g.match_id, g.status, g.pass, m.record_ref FROM match_groups g
        JOIN match_group_members m ON m.match_id = g.match_id ORDER BY g.match_id, m.record_ref`,
    ),
    breaks: await queryText(
      db,
      `SELECT class, entry_id, provider_ref, amount::text AS amount FROM breaks
        WHERE status <> 'resolved' ORDER BY class, entry_id, provider_ref`,
    ),
  });
  /** An incremental run, then a full one: both must leave the same results. */
  const runBoth = () => runIncrementalThenFull(db, options, results);
  const proposalOf = async (entryId: string) =>
    (
      await queryText<{ break_id: string }>(
        db,
        `SELECT break_id FROM breaks WHERE class = 'proposed_match' AND status = 'open'
          AND entry_id = '${entryId}'`,
      )
    )[0]?.break_id as string;

  it("makes a confirmed proposal a match and a rejected one two breaks, in every run", async () => {
    await queryText(
      db,
      `INSERT INTO card_transactions (txn_order_no, card_id, txn_type, txn_status, transaction_time,
         card_amount, card_currency, settle_amount, settle_currency, settle_time, raw, raw_hash,
         version, source)
       VALUES ${clearing("P0", "10.00")}, ${clearing("P1", "50.00")}, ${clearing("P2", "70.50")}`,
    );
    await queryText(
      db,
      `INSERT INTO ledger_entries (entry_id, kind, provider_ref, amount, currency, booked_at, card_id)
       VALUES ('E0', 'card_transaction', 'P0', -10.00, 'USD', '${at(0)}', '900'),
         ${entry("E1", "-50.10")}, ${entry("E2", "-70.95")}`,
    );
    for (const stream of ["card_transactions", "operate_records", "account_transactions"])
      await queryText(
        db,
        `INSERT INTO sync_watermarks (stream, watermark) VALUES ('${stream}', '${AS_OF.toISOString()}')
         ON CONFLICT DO NOTHING`,
      );
    // E0 books P0 exactly: an incremental run builds on stored pairs.
    await runMatch(db, options);
    const [e1, e2] = [await proposalOf("E1"), await proposalOf("E2")];
    expect([e1, e2].every((id) => typeof id === "string")).toBe(true);

    const confirmed = await decideProposal(db, {
      breakId: e1,
      decision: "confirm",
      actor: "alice",
    });
    expect(confirmed).toMatchObject({ entryId: "E1", providerRef: "P1", decision: "confirm" });
    await decideProposal(db, {
      breakId: e2,
      decision: "reject",
      actor: "bob",
      reason: "different purchase",
    });
    const after = await runBoth();
    expect(after.groups).toEqual([
      {
        match_id: "confirmed:E1",
        status: "confirmed",
        pass: "confirmed_proposal",
        record_ref: "E1",
      },
      {
        match_id: "confirmed:E1",
        status: "confirmed",
        pass: "confirmed_proposal",
        record_ref: "P1",
      },
    ]);
    expect(after.breaks.map((b) => [b.class, b.entry_id ?? b.provider_ref])).toEqual([
      ["missing_at_provider", "E2"],
      ["missing_in_ledger", "P2"],
    ]);
    const history = await queryText(
      db,
      `SELECT break_id, actor, action, text FROM break_actions ORDER BY id`,
    );
    expect(history).toEqual([
      { break_id: e1, actor: "alice", action: "confirm", text: "" },
      { break_id: e2, actor: "bob", action: "reject", text: "different purchase" },
    ]);
    // Finance query 14 lists both decisions, the entries unchanged.
    const q14 = await queryText(db, documentedQueries().get(14) ?? "");
    expect(q14.map((r) => [r.decision, r.entry_id, r.item_ref, r.entry_unchanged])).toEqual(
      expect.arrayContaining([
        ["confirmed", "E1", "P1", true],
        ["rejected", "E2", "P2", true],
      ]),
    );
    // Unchanged records keep the decisions run after run.
    await runMatch(db, { ...options, full: true });
    expect(await results()).toEqual(after);
  }, 120_000);

  it("lapses a confirmation when a record's amount changes: proposed again", async () => {
    await queryText(
      db,
      `UPDATE card_transactions SET card_amount = 50.20, settle_amount = 50.20 WHERE txn_order_no = 'P1'`,
    );
    const after = await runBoth();
    expect(after.groups.map((g) => [g.match_id, g.status, g.record_ref])).toEqual([
      ["proposed:E1", "proposed", "E1"],
      ["proposed:E1", "proposed", "P1"],
    ]);
    // The break is back with a lapse row saying why, written once (the incremental run wrote it;
    // the full run after it and later runs add none).
    const [confirmed] = await queryText<{ break_id: string }>(
      db,
      "SELECT break_id FROM break_actions WHERE action = 'confirm'",
    );
    const lapses = () =>
      queryText(
        db,
        "SELECT break_id, actor, action, text FROM break_actions WHERE action = 'lapse'",
      );
    expect(await lapses()).toEqual([
      {
        break_id: confirmed?.break_id,
        actor: "reconciler",
        action: "lapse",
        text: expect.stringMatching(
          /^proposal decision lapsed: confirmed by alice: provider P1 changed from -50.00 USD to -50.20 USD \(match run [0-9a-f-]+\)$/,
        ),
      },
    ]);
    const [workflow] = await queryText(
      db,
      `SELECT last_action, last_actor FROM break_workflow WHERE break_id = '${confirmed?.break_id}'`,
    );
    expect(workflow).toEqual({ last_action: "lapse", last_actor: "reconciler" });
    await runMatch(db, { ...options, full: true });
    expect(await lapses()).toHaveLength(1);
    // Finance query 14 tells the lapsed decision from the ones that hold.
    const q14 = await queryText(db, documentedQueries().get(14) ?? "");
    expect(q14.map((r) => [r.decision, r.entry_id, r.lapsed_at === null])).toEqual(
      expect.arrayContaining([
        ["confirmed", "E1", false],
        ["rejected", "E2", true],
      ]),
    );
  }, 120_000);

  it("refuses to decide a break that is no proposal, or a reject without a reason", async () => {
    const [other] = await queryText<{ break_id: string }>(
      db,
      "SELECT break_id FROM breaks WHERE class = 'missing_in_ledger' AND status = 'open'",
    );
    const refused = async (promise: Promise<unknown>) =>
      promise.then(
        () => undefined,
        (error: unknown) => (error instanceof WorkflowError ? error : undefined),
      );
    const notProposal = await refused(
      decideProposal(db, { breakId: other?.break_id as string, decision: "confirm", actor: "a" }),
    );
    expect(notProposal?.message).toMatch(/not a proposed_match/);
    const noReason = await refused(
      decideProposal(db, { breakId: await proposalOf("E1"), decision: "reject", actor: "a" }),
    );
    expect([noReason?.field, noReason?.message]).toEqual([
      "reason",
      expect.stringMatching(/reason is required/),
    ]);
  });
});

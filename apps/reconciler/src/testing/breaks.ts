// Test support: three open breaks (ledger entries no provider record books, in EUR, USD and
// HKD) after a match run forced to persist (no sync has run, so the run is incomplete).
import type { Db } from "../db/database";
import { queryText } from "../db/query-rows";
import { runMatch } from "../match/run-match";
import { type BreakFilter, type BreakRow, listBreakPage } from "../workflow/break-queries";

export const TEST_AS_OF = new Date("2026-06-01T00:00:00Z");

/** Seeds the three breaks; answers their ids in entry order (L-1, L-2, L-3). */
export async function seedThreeBreaks(db: Db): Promise<string[]> {
  await queryText(
    db,
    `INSERT INTO ledger_entries (entry_id, kind, provider_ref, amount, currency, booked_at) VALUES
      ('L-1', 'card_transaction', 'T-1', -1250.50, 'EUR', '2026-05-01T10:00:00Z'),
      ('L-2', 'card_transaction', 'T-2', -99.99, 'USD', '2026-05-02T10:00:00Z'),
      ('L-3', 'card_transaction', 'T-3', -10, 'HKD', '2026-05-03T10:00:00Z')`,
  );
  await runMatch(db, { asOf: TEST_AS_OF, onIncomplete: "all" });
  const rows = await queryText<{ break_id: string }>(
    db,
    "SELECT break_id FROM breaks WHERE status = 'open' ORDER BY entry_id",
  );
  return rows.map((r) => r.break_id);
}

/** The breaks matching the filter, sorted (most urgent first by default): the first page's rows. */
export async function listBreaks(db: Db, filter: BreakFilter = {}): Promise<BreakRow[]> {
  return (await listBreakPage(db, filter)).rows;
}

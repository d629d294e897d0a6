// Which kinds of provider records the stored pairs and match groups hold. The scope's lookups
// into them probe once per frontier row and kind (a card record, an operation, a fee, an account
// item, a cash leg); a kind no stored pair or member has can find nothing, so its lookups are
// left out (the stored breaks are found otherwise: open-breaks.ts). Read under the matcher's
// lock, which every writer of the stored results holds, so the answer stays true for the run.
import type { Db } from "../../db/database";
import { isTrue, queryText } from "../../db/query-rows";

/** Provider record kinds, and `cash` for account postings attached as cash legs. */
export type StoredKind = "card_transaction" | "card_operation" | "fee" | "account" | "cash";

const PROVIDER_KINDS = ["card_transaction", "card_operation", "fee", "account"] as const;

export async function storedKinds(tx: Db): Promise<ReadonlySet<StoredKind>> {
  // One branch per kind, each naming its kind as a literal: a parameter (a join with a list of
  // kinds) hid the value from the planner, which then scanned all of match_pairs per kind.
  const held = (kind: string) => `SELECT '${kind}' AS kind WHERE
      EXISTS (SELECT 1 FROM match_pairs WHERE record_kind = '${kind}')
      OR EXISTS (SELECT 1 FROM match_group_members WHERE side = 'provider' AND record_kind = '${kind}')`;
  const rows = await queryText<{ kind: StoredKind }>(
    tx,
    [
      ...PROVIDER_KINDS.map(held),
      "SELECT 'cash' WHERE EXISTS (SELECT 1 FROM match_group_members WHERE side = 'cash')",
    ].join("\n    UNION ALL "),
  );
  return new Set(rows.map((r) => r.kind));
}

/** Whether any match group or cash leg is stored: without one, no lookup into them is made. */
export async function storedGroups(tx: Db): Promise<boolean> {
  const [row] = await queryText<{ held: boolean | string }>(
    tx,
    "SELECT EXISTS (SELECT 1 FROM match_group_members) AS held",
  );
  return isTrue(row?.held);
}

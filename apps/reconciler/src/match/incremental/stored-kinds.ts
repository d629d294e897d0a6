// Which kinds of provider records the stored pairs and match groups hold. The scope's lookups
// into them probe once per frontier row and kind (a card record, an operation, a fee, an account
// item, a cash leg); a kind no stored pair or member has can find nothing, so its lookups are
// left out (the stored breaks are found otherwise: open-breaks.ts). Read off the key bounds
// (key-bounds.ts: a lookup that holds nothing has no bounds), which are read under the matcher's
// lock, which every writer of the stored results holds, so the answer stays true for the run.
import type { Db } from "../../db/database";
import { isTrue, queryText } from "../../db/query-rows";
import { type KeyBounds, PROVIDER_KINDS, type ProviderKind } from "./key-bounds";

/** Provider record kinds, and `cash` for account postings attached as cash legs. */
export type StoredKind = ProviderKind | "cash";

/** The kinds some stored pair or group member holds: those whose lookup has bounds. */
export function storedKinds(bounds: KeyBounds): ReadonlySet<StoredKind> {
  const held = (kind: StoredKind) =>
    (kind !== "cash" && bounds[`pair:${kind}`].length > 0) || bounds[`member:${kind}`].length > 0;
  return new Set([...PROVIDER_KINDS, "cash" as const].filter(held));
}

/** Whether any match group or cash leg is stored: without one, no lookup into them is made. */
export async function storedGroups(tx: Db): Promise<boolean> {
  const [row] = await queryText<{ held: boolean | string }>(
    tx,
    "SELECT EXISTS (SELECT 1 FROM match_group_members) AS held",
  );
  return isTrue(row?.held);
}

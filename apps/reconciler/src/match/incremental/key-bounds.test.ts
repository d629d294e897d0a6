// The ranges an incremental run skips probes by (key-bounds.ts): a key they rule out must find
// nothing in the lookup, whatever its shape; the ends are inclusive; a stored ref's lookup has a
// range per leading character, up to a few; a fee's or account item's key is bounded by the refs
// it prefixes; a lookup holding nothing rules every key out.
import { describe, expect, it } from "vitest";
import type { Db } from "../../db/database";
import { isTrue, queryText } from "../../db/query-rows";
import { testBackends } from "../../testing/databases";
import { useTestDatabase } from "../../testing/use-database";
import { mayHold, mayHoldKind, readKeyBounds } from "./key-bounds";
import { recordOfKey } from "./scope";

const PAIRS = [
  ["card_transaction", "T0005"],
  ["card_transaction", "T0009"],
  ["fee", "T0005#TRANSACTION"],
  ["fee", "g-op-2#DEPOSIT"],
  ["account", "1234:HKD"],
] as const;

const KEYS = [
  ...["T0005", "T0009", "T0006", "T0004", "T0010", "T", "T00", "g-op-2", "g-op-1", "1234"],
  ...["T0005#", "1234:", "", "zzz", "0"],
];

describe.each(testBackends())("the key bounds of an incremental run's lookups on %s", (kind) => {
  let db: Db;
  useTestDatabase(kind, (opened) => {
    db = opened.db;
  });

  async function held(condition: string): Promise<string[]> {
    const rows = await queryText<{ k: string; held: boolean | string }>(
      db,
      `SELECT s.k, ${condition} AS held FROM (VALUES ${KEYS.map((k) => `('${k}')`).join(", ")}) s(k)`,
    );
    return rows.filter((r) => isTrue(r.held)).map((r) => r.k);
  }

  async function seed() {
    await queryText(db, "TRUNCATE match_pairs, match_group_members");
    await queryText(
      db,
      `INSERT INTO match_pairs (record_kind, record_ref, entry_id, amount, currency, first_run_id)
        VALUES ${PAIRS.map(([k, ref], i) => `('${k}', '${ref}', 'E${i}', 1, 'HKD', gen_random_uuid())`).join(", ")}`,
    );
    return readKeyBounds(db);
  }

  it("rules out only keys the lookup cannot hold, ends included", async () => {
    const bounds = await seed();
    // Exact refs: T0005..T0009, both ends in.
    expect(
      await held(mayHoldKind(bounds, "pair:card_transaction", "card_transaction", "s.k")),
    ).toEqual(["T0005", "T0009", "T0006", "T0005#"]);
    // Fee refs <key>#…, a range per leading character: T0005#TRANSACTION, g-op-2#DEPOSIT; keys
    // between the two (T0009, g-op-1) are ruled out; "T0005#" is no key of a fee.
    expect(await held(mayHoldKind(bounds, "pair:fee", "fee", "s.k"))).toEqual(["T0005", "g-op-2"]);
    expect(await held(mayHoldKind(bounds, "pair:account", "account", "s.k"))).toEqual(["1234"]);
    // Nothing stored: every key ruled out, none probed.
    expect(await held(mayHoldKind(bounds, "member:fee", "fee", "s.k"))).toEqual([]);
    expect(await held(mayHold(bounds, "operation", "s.k"))).toEqual([]);
  });

  it("never rules out a key its lookup finds something under", async () => {
    const bounds = await seed();
    for (const kind of ["card_transaction", "fee", "account"] as const) {
      const rows = await queryText<{ k: string; found: boolean | string; may: boolean | string }>(
        db,
        `SELECT s.k,
            EXISTS (SELECT 1 FROM match_pairs x WHERE ${recordOfKey(kind)}) AS found,
            ${mayHoldKind(bounds, `pair:${kind}`, kind, "s.k")} AS may
          FROM (VALUES ${KEYS.map((k) => `('${k}')`).join(", ")}) s(k)`,
      );
      const missed = rows.filter((r) => isTrue(r.found) && !isTrue(r.may)).map((r) => r.k);
      expect({ kind, missed }).toEqual({ kind, missed: [] });
      expect(rows.some((r) => isTrue(r.found))).toBe(true);
    }
  });

  it("reads ids of many leading characters as a few ranges that still hold every one", async () => {
    const refs = [..."abcdefghij"].flatMap((c) => [`${c}1`, `${c}5`]);
    await queryText(db, "TRUNCATE match_pairs");
    await queryText(
      db,
      `INSERT INTO match_pairs (record_kind, record_ref, entry_id, amount, currency, first_run_id)
        VALUES ${refs.map((ref, i) => `('card_transaction', '${ref}', 'E${i}', 1, 'HKD', gen_random_uuid())`).join(", ")}`,
    );
    const ranges = (await readKeyBounds(db))["pair:card_transaction"];
    // A range per leading character up to the last, which reaches to the largest ref.
    expect(ranges).toEqual([
      ["a1", "a5"],
      ["b1", "b5"],
      ["c1", "c5"],
      ["d1", "d5"],
      ["e1", "e5"],
      ["f1", "j5"],
    ]);
    const keys = [...refs, "a6", "b0", "g3"];
    const rows = await queryText<{ k: string; may: boolean | string }>(
      db,
      `SELECT s.k, ${mayHold({ ...(await readKeyBounds(db)) }, "pair:card_transaction", "s.k")} AS may
        FROM (VALUES ${keys.map((k) => `('${k}')`).join(", ")}) s(k)`,
    );
    expect(rows.filter((r) => isTrue(r.may)).map((r) => r.k)).toEqual([...refs, "g3"]);
  });
});

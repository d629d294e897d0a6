// Which state of the finance data a reader sees: the finance_data_version sequence (migration
// 0024), which every write to a table behind a finance_* view advances, and whether a writer
// that advanced it may still be uncommitted.
import type { Db } from "../db/database";
import { isTrue, queryText } from "../db/query-rows";

/**
 * The current version, as text ("<last_value>:<is_called>": the sequence starts uncalled at 1).
 * Read before `quiet`: a writer that advanced it before this read either committed already or
 * still holds its shared lock when `quiet` asks.
 */
export async function financeVersion(db: Db): Promise<string> {
  const [row] = await queryText<{ last_value: string; is_called: boolean | string }>(
    db,
    "SELECT last_value::text, is_called FROM finance_data_version",
  );
  return `${row?.last_value}:${isTrue(row?.is_called)}`;
}

/**
 * True when no transaction that wrote finance data is uncommitted: the lock the writers share
 * (finance_data_changed) is free for an instant. Taken and given back in one statement on one
 * connection, so it never holds a writer up.
 */
export async function financeQuiet(db: Db): Promise<boolean> {
  const [row] = await queryText<{ quiet: boolean | string }>(
    db,
    `SELECT CASE WHEN pg_try_advisory_lock(finance_data_lock_key())
      THEN pg_advisory_unlock(finance_data_lock_key()) ELSE false END AS quiet`,
  );
  return isTrue(row?.quiet);
}

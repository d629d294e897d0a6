// The totals of the breaks a queue filter chooses, per currency: how many breaks are in it, their
// money at stake (breaks.amount, in the break's currency: the provider's) and their signed effect
// (provider - ledger, finance_break_effects: a currency_mismatch counts in both its currencies,
// as in the report's bridge). Amounts are never added across currencies.
import { sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { queryRows } from "../db/query-rows";
import { type BreakFilter, chosenBreaks } from "./break-queries";

export interface QueueTotal {
  currency: string;
  /** Breaks of the filter in this currency (their own currency). */
  count: number;
  /** Their money at stake (unsigned), in this currency. */
  atStake: string;
  /** The signed effect in this currency of every break of the filter touching it. */
  effect: string;
}

export async function queueTotals(db: Db, filter: BreakFilter): Promise<QueueTotal[]> {
  const { from, matching } = chosenBreaks(filter);
  return queryRows<QueueTotal & Record<string, unknown>>(
    db,
    sql`WITH chosen AS (SELECT break_id, currency, amount FROM ${from} WHERE ${matching}),
      own AS (SELECT currency, count(*) AS n, sum(amount) AS at_stake FROM chosen
        WHERE currency IS NOT NULL GROUP BY currency),
      effects AS (SELECT e.currency, sum(e.effect) AS effect FROM finance_break_effects e
        WHERE e.break_id IN (SELECT break_id FROM chosen) GROUP BY e.currency)
      SELECT coalesce(o.currency, f.currency) AS currency, coalesce(o.n, 0)::int AS count,
        coalesce(o.at_stake, 0)::text AS "atStake", coalesce(f.effect, 0)::text AS effect
      FROM own o FULL JOIN effects f ON f.currency = o.currency
      ORDER BY 1`,
  );
}

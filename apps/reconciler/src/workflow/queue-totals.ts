// The totals of the breaks a queue filter chooses, per currency: how many breaks are in it, their
// money at stake (breaks.amount, in the break's currency: the provider's) and their signed effect
// (provider - ledger, finance_break_effects: a currency_mismatch counts in both its currencies,
// as in the report's bridge). Amounts are never added across currencies. With a currency filter,
// only its currencies' lines: the filter chose every break with money in them, not in the others.
import { sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { queryRows } from "../db/query-rows";
import { type BreakFilter, chosenBreaks, inCurrencies } from "./break-queries";

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
  const shown =
    filter.currency && filter.currency.length > 0
      ? inCurrencies("currency", filter.currency)
      : sql`true`;
  return queryRows<QueueTotal & Record<string, unknown>>(
    db,
    sql`WITH chosen AS (SELECT break_id, currency, amount FROM ${from} WHERE ${matching}),
      own AS (SELECT currency, count(*) AS n, sum(amount) AS at_stake FROM chosen
        WHERE currency IS NOT NULL GROUP BY currency),
      effects AS (SELECT e.currency, sum(e.effect) AS effect FROM finance_break_effects e
        WHERE e.break_id IN (SELECT break_id FROM chosen) GROUP BY e.currency),
      totals AS (SELECT coalesce(o.currency, f.currency) AS currency, coalesce(o.n, 0)::int AS count,
        coalesce(o.at_stake, 0)::text AS "atStake", coalesce(f.effect, 0)::text AS effect
        FROM own o FULL JOIN effects f ON f.currency = o.currency)
      SELECT * FROM totals WHERE ${shown} ORDER BY 1`,
  );
}

/**
 * How many breaks a currency filter chose whose own currency is outside it (a currency_mismatch
 * with its ledger side in a filtered currency): in the totals' effect, not in their breaks or
 * at stake. 0 without a currency filter.
 */
export async function otherCurrencyBreaks(db: Db, filter: BreakFilter): Promise<number> {
  if (!filter.currency || filter.currency.length === 0) return 0;
  const { from, matching } = chosenBreaks(filter);
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM ${from} WHERE ${matching}
      AND NOT coalesce(${inCurrencies("currency", filter.currency)}, false)`,
  );
  return Number(row?.n ?? 0);
}

/** What the totals of a currency filter leave out of their breaks and at stake, said under them. */
export function currencyFilterNote(others: number, currencies: readonly string[]): string {
  return `${others.toLocaleString("en-US")} ${others === 1 ? "break listed is" : "breaks listed are"} in another currency of ${others === 1 ? "its" : "their"} own (a currency_mismatch whose ledger side is in ${currencies.join(" or ")}): in the effect above, not in ${others === 1 ? "its" : "their"} breaks or at stake`;
}

/** The note under a filter's totals (breaks list, the console's queue); undefined: none needed. */
export async function queueTotalsNote(db: Db, filter: BreakFilter): Promise<string | undefined> {
  const others = await otherCurrencyBreaks(db, filter);
  return others === 0 ? undefined : currencyFilterNote(others, filter.currency ?? []);
}

// The due-date settings the finance views read (finance_due_settings, finance_open_breaks.due_at):
// RECONCILER_DUE_DAYS and RECONCILER_DUE_LARGE_AMOUNT live in each process's environment, and a
// view cannot read an environment, so every reconciler command that opens the database for
// writing stores its settings here (workflow/due-dates.ts storeDueSettings). One row.
import { sql } from "drizzle-orm";
import { check, integer, numeric, pgTable, smallint } from "drizzle-orm/pg-core";
import { jsonbText, time } from "./column-types";

export const dueSettings = pgTable(
  "due_settings",
  {
    /** Always 1: one row. */
    id: smallint("id").primaryKey().default(1),
    /** Days per priority, P1 … P4. */
    days: integer("days").array().notNull(),
    /** Days per class named in RECONCILER_DUE_DAYS, over its priority's: {"missing_in_ledger": 3}. */
    classDays: jsonbText("class_days").notNull(),
    /** From this amount at stake (the break's own currency) up, the days are halved, rounded up. */
    largeAmount: numeric("large_amount").notNull(),
    /** When a process last stored other settings than these. */
    updatedAt: time("updated_at").notNull().defaultNow(),
  },
  (t) => [
    check("due_settings_one_row", sql`${t.id} = 1`),
    check("due_settings_days", sql`cardinality(${t.days}) = 4`),
  ],
);

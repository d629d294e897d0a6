import { describe, expect, it } from "vitest";
import type { SourceIndex } from "./scoped-tables";
import { probedIndexes } from "./scoped-tables";

const index = (tablename: SourceIndex["tablename"], indexdef: string): SourceIndex => ({
  tablename,
  indexdef,
});

describe("the indexes an incremental run builds on its copies", () => {
  const reads = `SELECT c.txn_order_no FROM card_transactions c
    JOIN card_transactions a ON a.txn_order_no = c.origin_txn_order_no
    WHERE c.card_id = $1 AND c.transaction_time > now() AND c.txn_status = 'P'`;

  it("keeps an index whose columns a statement names, partial or not", () => {
    const kept = [
      index(
        "card_transactions",
        "CREATE UNIQUE INDEX card_transactions_pkey ON public.card_transactions USING btree (txn_order_no)",
      ),
      index(
        "card_transactions",
        "CREATE INDEX card_transactions_card_time_idx ON public.card_transactions USING btree (card_id, transaction_time)",
      ),
      index(
        "card_transactions",
        "CREATE INDEX card_transactions_pending_idx ON public.card_transactions USING btree (transaction_time) WHERE (txn_status = 'P'::text)",
      ),
    ];
    expect(probedIndexes(kept, reads)).toEqual(kept);
  });

  it("leaves out an index on an expression or on a column no statement names", () => {
    const left = [
      index(
        "card_transactions",
        "CREATE INDEX card_transactions_day_idx ON public.card_transactions USING btree ((((COALESCE(settle_time, transaction_time) AT TIME ZONE 'UTC'::text))::date))",
      ),
      index(
        "ledger_entries",
        "CREATE INDEX ledger_entries_source_idx ON public.ledger_entries USING btree (source_file, updated_at)",
      ),
      // Only one of its two columns is named: the copy's planner could not use it as probed.
      index(
        "card_transactions",
        "CREATE INDEX card_transactions_card_merchant ON public.card_transactions USING btree (card_id, merchant_id)",
      ),
      // A name that contains a named column is not that column.
      index(
        "card_transactions",
        "CREATE INDEX x ON public.card_transactions USING btree (card_id_hash)",
      ),
    ];
    expect(probedIndexes(left, reads)).toEqual([]);
  });

  it("refuses a definition it cannot read", () => {
    expect(() => probedIndexes([index("ledger_entries", "CREATE INDEX odd")], reads)).toThrow(
      /unexpected index definition on ledger_entries/,
    );
  });
});

import { describe, expect, it } from "vitest";
import { copiedColumns } from "./copied-columns";

const COLUMNS = [
  { tablename: "card_transactions", column: "txn_order_no" },
  { tablename: "card_transactions", column: "txn_status" },
  { tablename: "card_transactions", column: "raw" },
  { tablename: "card_transactions", column: "settle_amount" },
  { tablename: "service_ids", column: "service_id" },
] as const;

describe("the columns an incremental run's copies hold", () => {
  it("keeps the columns the reads name as words, in table order", () => {
    const columns = copiedColumns(COLUMNS, "SELECT c.settle_amount, c.txn_order_no FROM x c");
    expect(columns.of("card_transactions")).toBe("txn_order_no, settle_amount");
    expect(columns.of("card_transactions", "x")).toBe("x.txn_order_no, x.settle_amount");
  });

  it("keeps a column named only by an index's predicate when its definition is read", () => {
    const index =
      "CREATE INDEX i ON card_transactions USING btree (txn_order_no) WHERE (txn_status = 'P')";
    expect(copiedColumns(COLUMNS, `txn_order_no\n${index}`).of("card_transactions")).toBe(
      "txn_order_no, txn_status",
    );
  });

  it("does not take a column for a part of a longer name", () => {
    expect(copiedColumns(COLUMNS, "SELECT raw_hash, txn_order_no").of("card_transactions")).toBe(
      "txn_order_no",
    );
  });

  it("copies every column of a table none of whose columns the reads name", () => {
    expect(copiedColumns(COLUMNS, "SELECT 1").of("service_ids", "x")).toBe("x.*");
  });
});

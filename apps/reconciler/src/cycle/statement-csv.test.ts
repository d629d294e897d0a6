// statement.csv carries the by-class split of each day's open breaks, as the report's statement.
import { describe, expect, it } from "vitest";
import type { ReportData, StatementRow } from "../report/report-data";
import { statementCsv } from "./write-report";

describe("statement.csv", () => {
  it("ends each row with the by-class column: class=amount joined by ';'", () => {
    const row: StatementRow = {
      day: "2026-05-30",
      currency: "EUR",
      providerTotal: "100.00",
      ledgerTotal: "109.17",
      difference: "-9.17",
      timing: "0",
      explainedByBreaks: "-9.17",
      pending: "0",
      unexplained: "0",
      accepted: "0",
      byClass: { fee_mismatch: "-1.00", currency_mismatch: "-8.17" },
    };
    const csv = statementCsv({ statement: [row] } as unknown as ReportData).split("\n");
    expect(csv[0]).toMatch(/,by_class$/);
    expect(csv[1]).toBe(
      "2026-05-30,EUR,100.00,109.17,-9.17,0,-9.17,0,0,0,currency_mismatch=-8.17;fee_mismatch=-1.00",
    );
  });
});

// The CSV writer alone: RFC 4180 quoting and line ends, and cells a spreadsheet would run as a
// formula shown as typed, amounts left as numbers.
import { describe, expect, it } from "vitest";
import { tableCsv } from "./csv-table";

describe("tableCsv", () => {
  it("quotes, doubles quotes, ends lines with CRLF, and defuses formulas in text cells only", () => {
    const csv = tableCsv({
      columns: [{ name: "account" }, { name: "amount", amount: true }, { name: "reason" }],
      rows: [
        ['=HYPERLINK("x")', "-12.50", 'a, "b"\nc'],
        ["+1", "1250.50", "@SUM(A1)"],
        ["-2", null, "\tx"],
        ["6800", "0.01", "plain"],
      ],
    });
    expect(csv).toBe(
      [
        "account,amount,reason",
        '"\'=HYPERLINK(""x"")",-12.50,"a, ""b""\nc"',
        "'+1,1250.50,'@SUM(A1)",
        "'-2,,'\tx",
        "6800,0.01,plain",
        "",
      ].join("\r\n"),
    );
  });
});

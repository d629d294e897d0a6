// The chart of breaks by class and day places days by date (a day without breaks keeps its
// slot) and shows each day's money per currency beside its counts.
import { describe, expect, it } from "vitest";
import { calendarDays, dayChart } from "./charts";

describe("the chart of breaks by class and day", () => {
  const rows = [
    {
      day: "2026-05-30",
      class: "amount_mismatch",
      count: 2,
      money: [{ currency: "USD", amount: "-1213.97" }],
    },
    {
      day: "2026-06-02",
      class: "currency_mismatch",
      count: 1,
      money: [
        { currency: "EUR", amount: "-9.17" },
        { currency: "USD", amount: "10.00" },
      ],
    },
  ];

  it("spaces days by date across month ends, gaps included", () => {
    expect(calendarDays(["2026-06-02", "2026-05-30"])).toEqual([
      "2026-05-30",
      "2026-05-31",
      "2026-06-01",
      "2026-06-02",
    ]);
    const svg = dayChart(rows, { label: "open breaks", allClasses: [], empty: "none" });
    // Four day slots, the two empty days labelled where they fall.
    for (const label of ["05-30", "05-31", "06-01", "06-02"]) expect(svg).toContain(`>${label}<`);
    const xs = [...svg.matchAll(/<rect x="(\d+)"/g)].map((m) => Number(m[1]));
    const [first, last] = [xs[0] as number, xs[xs.length - 1] as number];
    const slot = Number(/<rect x="\d+" y="[^"]+" width="(\d+)"/.exec(svg)?.[1]) + 2;
    expect(last - first).toBe(3 * slot);
  });

  it("shows money per currency beside the counts, never added across currencies", () => {
    const svg = dayChart(rows, { label: "open breaks", allClasses: [], empty: "none" });
    expect(svg).toMatch(
      /2026-05-30<\/td><td>amount_mismatch<\/td><td class="n">2<\/td><td class="n">-1,213\.97 USD/,
    );
    expect(svg).toContain("-9.17 EUR, 10.00 USD");
  });
});

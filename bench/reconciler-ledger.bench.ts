/**
 * The ledger intake (issue 37 §3): a 400,000-row ledger file imported into an empty database
 * with importLedger (parse, check, COPY into staging, merge), then the same file again with 1,000
 * rows changed (an amount corrected by a cent), then a daily drop of 4,000 new entries. The goal:
 * the re-import costs ≤ 10 % of the first import, the drop what it holds.
 *
 * Needs DATABASE_URL (a throwaway database is created on it and dropped).
 * RECONCILER_LEDGER_ROWS changes the row count (default 400,000).
 */
import { performance } from "node:perf_hooks";
import { addDecimal } from "@merchantkit/core";
import { openDatabase } from "../apps/reconciler/src/db/connect";
import { createScratchDatabase } from "../apps/reconciler/src/db/scratch-database";
import { importLedger } from "../apps/reconciler/src/ledger/import-ledger";
import { LEDGER_COLUMNS } from "../apps/reconciler/src/ledger/ledger-row";
import { benchSetting, type CaseResult, postgresServer, printTable } from "./harness";

const START = Date.parse("2026-05-01T00:00:00Z");

function line(i: number, cents = 300 + ((i * 7919) % 190_000)): string {
  const amount = `-${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
  const booked = new Date(START + i * 6_000).toISOString();
  const card = String(1953712585351499776n + BigInt(i % 20_000));
  return `L${i},card_transaction,T${100_000_000_000_000 + i},${amount},USD,${booked},,${card},"coffee, card ${i % 97}",`;
}

const file = (lines: string[]) => `${LEDGER_COLUMNS.join(",")}\n${lines.join("\n")}\n`;

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/** A bench setting from the environment (read by name, as the other benches do). */
const _setting = (name: string): string | undefined => process.env[name];

export async function run(): Promise<void> {
  const url = postgresServer("the ledger bench");
  if (!url) return;
  const rows = Number(benchSetting("RECONCILER_LEDGER_ROWS") ?? 400_000);
  const lines = Array.from({ length: rows }, (_, i) => line(i));
  const changed = lines.map((l, i) =>
    i % Math.floor(rows / 1_000) === 7
      ? l.replace(/,(-\d+\.\d\d),/, (_, a: string) => `,${addDecimal(a, "-0.01")},`)
      : l,
  );
  const drop = Array.from({ length: rows / 100 }, (_, i) => line(rows + i));
  const scratch = await createScratchDatabase(url, "reconciler_bench");
  try {
    const database = await openDatabase({ url: scratch.url });
    try {
      const db = database.db;
      const opts = { sourceFile: "ledger.csv" };
      const first = await timed(() => importLedger(db, file(lines), opts));
      const again = await timed(() => importLedger(db, file(lines), opts));
      let updated = 0;
      const corrected = await timed(async () => {
        updated = (await importLedger(db, file(changed), opts)).updated;
      });
      const daily = await timed(() => importLedger(db, file(drop), { sourceFile: "drop.csv" }));
      console.log(
        `${rows.toLocaleString("en-US")} rows: first import ${(first / 1000).toFixed(2)} s; ` +
          `the same file again ${(again / 1000).toFixed(2)} s (${((100 * again) / first).toFixed(1)} %); ` +
          `with ${updated} rows changed ${(corrected / 1000).toFixed(2)} s (${((100 * corrected) / first).toFixed(1)} %, goal ≤ 10 %); ` +
          `a drop of ${drop.length.toLocaleString("en-US")} new entries ${(daily / 1000).toFixed(2)} s ` +
          `(${((100 * daily) / first).toFixed(1)} % of the first import for ${((100 * drop.length) / rows).toFixed(0)} % of its rows)`,
      );
      const row = (name: string, ms: number, n: number): CaseResult => ({
        name,
        opsPerSec: (n / ms) * 1000,
        nsPerOp: (ms * 1e6) / n,
        ratio: ms / first,
      });
      printTable(`ledger intake, ${rows.toLocaleString("en-US")} rows`, "row", [
        row("first import (parse, check, COPY, merge)", first, rows),
        row("the same file again, nothing changed", again, rows),
        row("the file again with 1,000 rows changed", corrected, rows),
        row(`a drop of ${drop.length} new entries`, daily, drop.length),
      ]);
    } finally {
      await database.close();
    }
  } finally {
    await scratch.drop();
  }
}

// `ledger import` killed with SIGKILL mid-file: no ledger entry of it is stored, and the rows it
// staged do not outlive it (the next import clears them); a refused file exits 5. Postgres server only: PGlite's data
// folder cannot be watched from a second process while the import holds it.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../db/connect";
import { queryText } from "../db/query-rows";
import { createScratchDatabase } from "../db/scratch-database";
import { spawnCli } from "../testing/cli";
import { temporaryFolder, testBackends } from "../testing/databases";

const HEADER = "entry_id,kind,provider_ref,amount,currency,booked_at,fee_type,card_id,description";
const ROWS = 200_000;

describe.runIf(testBackends().includes("postgres"))("a killed ledger import", () => {
  it("leaves no entries and no staged rows behind", async () => {
    const scratch = await createScratchDatabase(process.env.DATABASE_URL ?? "", "reconciler_kill");
    const folder = temporaryFolder("reconciler-kill-");
    const database = await openDatabase({ url: scratch.url, maxConnections: 2 });
    try {
      const lines = [HEADER];
      for (let i = 0; i < ROWS; i++)
        lines.push(
          `K-${i},card_transaction,TXN-${i},${(i % 9000) + 1}.25,USD,2026-11-20T10:00:00Z,,,row ${i}`,
        );
      const big = join(folder.path, "big.csv");
      writeFileSync(big, `${lines.join("\n")}\n`);

      const count = async (table: string) =>
        Number(
          (await queryText<{ n: string }>(database.db, `SELECT count(*) AS n FROM ${table}`))[0]?.n,
        );
      const importing = spawnCli(["ledger", "import", big], { DATABASE_URL: scratch.url });
      // Kill it while its merge into ledger_entries runs: its rows are staged (committed by the
      // COPY) and the merge has not committed.
      const name = new URL(scratch.url).pathname.slice(1);
      let merging = false;
      for (let i = 0; i < 2_000 && !merging && importing.child.exitCode === null; i++) {
        const active = await queryText<{ query: string }>(
          database.db,
          `SELECT query FROM pg_stat_activity WHERE datname = '${name}' AND state = 'active'
             AND pid <> pg_backend_pid()`,
        );
        merging = active.some((a) => a.query.includes("INSERT INTO ledger_entries"));
        if (!merging) await new Promise((r) => setTimeout(r, 10));
      }
      importing.child.kill("SIGKILL");
      expect((await importing.exited).signal, importing.err.join("\n")).toBe("SIGKILL");
      expect(merging).toBe(true);
      // The server notices the dead client and rolls its merge back.
      for (let i = 0; i < 200 && (await count("ledger_entries")) > 0; i++)
        await new Promise((r) => setTimeout(r, 50));
      expect(await count("ledger_entries")).toBe(0);
      expect(await count("ledger_staging")).toBe(ROWS); // what a dead import leaves

      const small = join(folder.path, "small.csv");
      writeFileSync(
        small,
        `${HEADER}\nS-1,card_transaction,TXN-S1,12.50,USD,2026-11-20T10:00:00Z,,,after the kill\n`,
      );
      const next = spawnCli(["ledger", "import", small], { DATABASE_URL: scratch.url });
      expect((await next.exited).code, next.err.join("\n")).toBe(0);
      expect(await count("ledger_staging")).toBe(0);
      expect(await count("ledger_entries")).toBe(1);

      // A refused file exits 5, ledger input refused, as the cycle's sources do (it exited 1,
      // the code of a failure), and nothing of it is imported.
      const bad = join(folder.path, "bad.csv");
      writeFileSync(
        bad,
        `${HEADER}\nB-1,card_transaction,TXN-B1,12.50,USD,2026-11-20T10:00:00Z,,,good\nB-2,card_transaction,TXN-B2,1e2,USD,2026-11-20T10:00:00Z,,,bad amount\n`,
      );
      const refused = spawnCli(["ledger", "import", bad], { DATABASE_URL: scratch.url });
      expect((await refused.exited).code, refused.err.join("\n")).toBe(5);
      expect(refused.err.join("\n")).toContain("1e2");
      expect(await count("ledger_entries")).toBe(1);
    } finally {
      await database.close();
      folder.remove();
      await scratch.drop();
    }
  }, 180_000);
});

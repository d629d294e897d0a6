// Test support: the database backends a test file runs against, each opened once per file.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../db/connect";
import type { Database, DatabaseKind } from "../db/database";
import { createScratchDatabase } from "../db/scratch-database";

/**
 * PGlite always; a Postgres server when DATABASE_URL is set, and in CI (CI set) even when it
 * is not, so that its absence fails the tests instead of skipping them.
 */
export function testBackends(env = process.env): DatabaseKind[] {
  return env.DATABASE_URL || env.CI ? ["pglite", "postgres"] : ["pglite"];
}

export interface TestDatabase extends Database {
  /** Opens another handle (its own pool) on the same Postgres database; PGlite has none. */
  openAnother(): Promise<Database>;
  /** Closes the handle and removes the database (scratch database or data folder). */
  dispose(): Promise<void>;
}

/** A fresh, migrated database of the given kind: a scratch database or an in-memory PGlite. */
export async function openTestDatabase(
  kind: DatabaseKind,
  opts: { dataDir?: string } = {},
): Promise<TestDatabase> {
  if (kind === "pglite") {
    const database = await openDatabase({ dataDir: opts.dataDir ?? "memory://" });
    return {
      ...database,
      openAnother: () => Promise.reject(new Error("PGlite serves one process")),
      dispose: () => database.close(),
    };
  }
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl)
    throw new Error(
      "DATABASE_URL is not set, but CI requires the Postgres server variant of these tests",
    );
  const scratch = await createScratchDatabase(serverUrl, "reconciler_test");
  try {
    // Each stream's lock holds a connection while its run lasts: four streams, and two runs at
    // once in the lock tests, still leave connections for the work.
    const database = await openDatabase({ url: scratch.url, maxConnections: 6 });
    return {
      ...database,
      openAnother: () => openDatabase({ url: scratch.url, maxConnections: 2 }),
      async dispose() {
        await database.close();
        await scratch.drop();
      },
    };
  } catch (error) {
    await scratch.drop();
    throw error;
  }
}

/** A temporary folder (for a persisted PGlite) and its removal. */
export function temporaryFolder(prefix: string): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

// Applying the committed drizzle-kit migrations at open, once, even with several workers.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { advisoryKey } from "./advisory-key";
import type { Backend } from "./backend";
import type { Db } from "./database";
import { queryText } from "./query-rows";
import { describeDatabaseUrl } from "./reach-database";
import { withSessionLock } from "./session-lock";

/**
 * The committed migrations folder (apps/reconciler/drizzle), found by walking up from this
 * module: src/db/ in tests and tsx, dist/ once built, so both resolve it.
 */
export function defaultMigrationsFolder(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const candidate = join(dir, "drizzle");
    if (existsSync(join(candidate, "meta", "_journal.json"))) return candidate;
    dir = dirname(dir);
  }
  throw new Error(
    "the reconciler's drizzle migrations folder was not found; pass migrationsFolder to openDatabase()",
  );
}

/**
 * Runs `migrate` under a session advisory lock, so workers starting together apply each
 * migration once (the second waits, then finds it recorded in drizzle.__drizzle_migrations).
 */
export async function withMigrationLock(backend: Backend, migrate: () => Promise<void>) {
  await withSessionLock(backend, advisoryKey("migrations"), migrate);
}

/**
 * Checks that a database opened read-only (a standby) holds every committed migration: the
 * primary applies them, and a standby still replaying one would answer views of another shape.
 */
export async function checkMigrated(db: Db, migrationsFolder: string, url: string): Promise<void> {
  const journal = JSON.parse(readFileSync(join(migrationsFolder, "meta", "_journal.json"), "utf8"));
  const entries = journal.entries as { when: number }[];
  const last = entries.at(-1)?.when ?? 0;
  const [row] = await queryText<{ applied: string | null }>(
    db,
    `SELECT max(created_at)::text AS applied FROM drizzle.__drizzle_migrations`,
  ).catch(() => [{ applied: null }]);
  if (row?.applied === null || row?.applied === undefined || Number(row.applied) < last)
    throw new Error(
      `the read-only database ${describeDatabaseUrl(url)} does not hold the reconciler's ${entries.length} migrations yet: migrate its primary (any reconciler command run against it does) and let it replay`,
    );
}

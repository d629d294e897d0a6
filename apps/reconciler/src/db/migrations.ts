// Applying the committed drizzle-kit migrations at open, once, even with several workers.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { advisoryKey } from "./advisory-key";
import type { Backend } from "./backend";
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

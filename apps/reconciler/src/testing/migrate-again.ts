// Test support: the migrations applied again on a database that is already open.
import { backendOf } from "../db/backend";
import type { Database } from "../db/database";
import { defaultMigrationsFolder, withMigrationLock } from "../db/migrations";

/** Applies the migrations again on an open database (a no-op when all are applied). */
export async function migrateDatabase(database: Database, migrationsFolder?: string) {
  const folder = migrationsFolder ?? defaultMigrationsFolder();
  const backend = backendOf(database.db);
  await withMigrationLock(backend, () => backend.migrate(folder));
}

// Test support for the `breaks` commands run through main(): a database of one backend (a PGlite
// folder, or a scratch database on the server) seeded with three breaks, and the flags that
// point a command at it. Opened before a file's tests, removed after them.
import { afterAll, beforeAll } from "vitest";
import { openDatabase } from "../db/connect";
import type { DatabaseKind } from "../db/database";
import { createScratchDatabase } from "../db/scratch-database";
import { seedThreeBreaks } from "./breaks";
import { temporaryFolder } from "./databases";

/** `opened` receives the flags naming the database (`where`) and the three breaks' ids. */
export function useBreaksCliDatabase(
  kind: DatabaseKind,
  name: string,
  opened: (where: string[], ids: string[]) => void,
): void {
  let cleanup: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    let where: string[];
    if (kind === "pglite") {
      const folder = temporaryFolder(`${name.replaceAll("_", "-")}-`);
      where = ["--data-dir", folder.path];
      cleanup = async () => folder.remove();
    } else {
      const scratch = await createScratchDatabase(process.env.DATABASE_URL as string, name);
      where = ["--database-url", scratch.url];
      cleanup = () => scratch.drop();
    }
    const database = await openDatabase(
      kind === "pglite" ? { dataDir: where[1] as string } : { url: where[1] as string },
    );
    try {
      opened(where, await seedThreeBreaks(database.db));
    } finally {
      await database.close();
    }
  }, 120_000);
  afterAll(async () => {
    await cleanup?.();
  });
}

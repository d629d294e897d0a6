// Test support for the `breaks` commands run through main(): a database of one backend (a PGlite
// folder, or a scratch database on the server) seeded with three breaks, and the flags that
// point a command at it. Opened before a file's tests, removed after them.
import { afterAll, beforeAll } from "vitest";
import { main } from "../cli/main";
import { openDatabase } from "../db/connect";
import type { DatabaseKind } from "../db/database";
import { createScratchDatabase } from "../db/scratch-database";
import { seedThreeBreaks } from "./breaks";
import { fakeIo } from "./cli";
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
  // Dropping a database waits for a checkpoint, which takes seconds on a busy server.
  afterAll(async () => {
    await cleanup?.();
  }, 60_000);
}

/**
 * The `breaks` commands' database (useBreaksCliDatabase) and `cli(words, env)`, which runs
 * main() in process against it (with `defaultEnv` unless told otherwise); `opened` holds its flags and the seeded breaks' ids once open.
 */
export function useBreaksCli(
  kind: DatabaseKind,
  name: string,
  defaultEnv: Record<string, string> = {},
) {
  const opened = { where: [] as string[], ids: [] as string[] };
  useBreaksCliDatabase(kind, name, (where, ids) => {
    opened.where = where;
    opened.ids = ids;
  });
  const cli = async (words: string[], env: Record<string, string> = defaultEnv) => {
    const c = fakeIo(env);
    const code = await main([...words, ...opened.where], c.io);
    return { code, ...c };
  };
  return { opened, cli };
}

// Throwaway databases on a Postgres server, for tests and benchmarks.
import { randomBytes } from "node:crypto";
import postgres from "postgres";

export interface ScratchDatabase {
  /** URL of the new, empty database. */
  url: string;
  /** Drops it (closing any connection still open to it). */
  drop(): Promise<void>;
}

/**
 * Creates an empty database next to the one `serverUrl` names (the user needs CREATEDB), so a
 * test or benchmark never touches real tables; with `template`, a copy of that database (which
 * nobody may be connected to). Drop it when done.
 */
export async function createScratchDatabase(
  serverUrl: string,
  prefix = "reconciler_scratch",
  template?: string,
): Promise<ScratchDatabase> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    const copy = template === undefined ? "" : ` TEMPLATE "${template.replaceAll('"', '""')}"`;
    await admin.unsafe(`CREATE DATABASE ${name}${copy}`);
  } finally {
    await admin.end({ timeout: 5 });
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const dropper = postgres(serverUrl, { max: 1, onnotice: () => {} });
      try {
        await dropper.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await dropper.end({ timeout: 5 });
      }
    },
  };
}

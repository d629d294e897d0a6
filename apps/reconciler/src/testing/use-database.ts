// A test file's database of one backend: opened before its tests, disposed of after them.
// `opened` receives it, so the file keeps it (or its db) in its own variables.
import { afterAll, beforeAll } from "vitest";
import type { DatabaseKind } from "../db/database";
import { openTestDatabase, type TestDatabase } from "./databases";

export function useTestDatabase(kind: DatabaseKind, opened: (database: TestDatabase) => void) {
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
    opened(database);
  }, 120_000);
  afterAll(() => database?.dispose());
}

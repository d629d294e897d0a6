// The reconciler's database: schema, the one Db type, openDatabase() and raw-row access.
export { advisoryKey } from "./advisory-key";
export * from "./connect";
export { copyField, copyLine, copyRows } from "./copy-rows";
export type { Database, DatabaseKind, Db } from "./database";
export { defaultMigrationsFolder } from "./migrations";
export { queryRows, queryText } from "./query-rows";
export * as schema from "./schema";
export { createScratchDatabase, type ScratchDatabase } from "./scratch-database";

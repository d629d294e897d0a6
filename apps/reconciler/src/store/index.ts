// The reconciler's store: batched idempotent upserts, windows and watermarks, run records,
// serviceIds, the stream lock and the webhook dedupe store.
export * from "./account-transactions";
export * from "./card-transactions";
export * from "./commit-window";
export * from "./dedupe-store";
export * from "./error-text";
export * from "./operate-records";
export * from "./service-ids";
export * from "./stream-lock";
export * from "./sync-runs";
export * from "./sync-windows";
export type { RecordSource, UpsertCounts, UpsertOptions } from "./upsert-batch";
export { DEFAULT_BATCH_SIZE } from "./upsert-batch";
export * from "./watermarks";

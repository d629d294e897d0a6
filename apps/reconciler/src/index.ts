/**
 * apps/reconciler: pulls the service's records into Postgres (crash-safe, idempotent, never
 * downgrading a final status) and matches them against the merchant's ledger.
 */
export * from "./db";
export * from "./store";

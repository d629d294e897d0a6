// The reconciler's database schema in code; drizzle-kit generates ../../drizzle from it.
export * from "./tables/account-transactions";
export * from "./tables/break-workflow";
export * from "./tables/card-transactions";
export * from "./tables/console-users";
export * from "./tables/due-settings";
export * from "./tables/journal-entries";
export * from "./tables/ledger";
export * from "./tables/manual-matches";
export * from "./tables/matching";
export * from "./tables/operate-records";
export * from "./tables/payouts";
export * from "./tables/proposal-decisions";
export * from "./tables/service-ids";
export * from "./tables/sync-state";
export * from "./tables/webhook-events";

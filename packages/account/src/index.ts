/**
 * @merchantkit/account: account balance changes by serviceIds and Global Account details,
 * over core's transport with `apikey` + `x-timestamp` set on every attempt.
 */
// The error guards and result types of core, so this package alone is enough to call and to catch.
export * from "@merchantkit/core/client";
export { AccountClient } from "./account-client";
export { accountErrorOf } from "./account-error";
export type { AccountClientOptions } from "./client-options";
export { GlobalAccounts } from "./global-accounts";
export { DEFAULT_CONCURRENCY } from "./list-by-service-ids";
export { AccountTransactions } from "./transactions";
export type * from "./types";

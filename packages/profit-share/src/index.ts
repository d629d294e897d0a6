/**
 * @merchantkit/profit-share: share a completed payment's proceeds, reverse a share, query and
 * wait for the result — typed both ways on core's transport.
 */

// The error guards and result types of core, so this package alone is enough to call and to catch.
export * from "@merchantkit/core/client";
export type { ProfitShareClientOptions } from "./client-options";
export { ProfitShareClient } from "./profit-share-client";
export type * from "./types";
export {
  isFinalProfitShareState,
  type WaitForResultOptions,
} from "./wait-for-result";

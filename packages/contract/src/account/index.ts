/** The account area: endpoints, records, the error object, codes and the x-timestamp rule. */
// biome-ignore lint/correctness/noUnusedImports: so the .d.ts says JsonNumber, not import("@merchantkit/core").JsonNumber, which the bundled .d.ts loses (scripts/check-pack.ts)
import type { JsonNumber } from "@merchantkit/core";
import { accountGlobalGetDetail } from "./account-global-get-detail";
import { accountTransactionsServiceQuery } from "./account-transactions-service-query";

export * from "./account-global-get-detail";
export * from "./account-transactions-service-query";
export * from "./codes";
export * from "./error-object";
export * from "./fields";
export * from "./records";
export * from "./timestamp";

export const accountEndpoints = [accountTransactionsServiceQuery, accountGlobalGetDetail] as const;

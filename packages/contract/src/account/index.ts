/** The account area: endpoints, records, the error object, codes and the x-timestamp rule. */
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

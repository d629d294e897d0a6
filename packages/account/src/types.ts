/**
 * The account client's public types under readable names, each derived from the contract so a
 * field or a limit is written once (in @merchantkit/contract) and never re-declared.
 */
import type {
  AppOf,
  accountErrorObject,
  accountGlobalGetDetail,
  accountTransactionRecord,
  accountTransactionsServiceQuery,
} from "@merchantkit/contract";
import type { EndpointParams, EndpointResult, RequestOptions } from "@merchantkit/core";

/** One balance change: ids are digit strings, `amount` a signed decimal string, times ISO 8601. */
export type AccountTransaction = AppOf<typeof accountTransactionRecord>;

/** `transactions.query`: 1 to 100 serviceIds (digit strings); requestId is filled when absent. */
export type AccountTransactionsQueryParams = EndpointParams<typeof accountTransactionsServiceQuery>;
export type AccountTransactionsQueryResult = EndpointResult<typeof accountTransactionsServiceQuery>;

/** `globalAccounts.retrieve`: globalAccountId (digits) or globalAccountNo, or both naming one account. */
export type GlobalAccountRetrieveParams = EndpointParams<typeof accountGlobalGetDetail>;
export type GlobalAccount = EndpointResult<typeof accountGlobalGetDetail>;

/** The structured `error` object of a failed account call (see `accountErrorOf`). */
export type AccountErrorObject = AppOf<typeof accountErrorObject>;

export interface ListByServiceIdsOptions extends RequestOptions {
  /** Calls of at most 100 serviceIds in flight at once. Default 4. */
  concurrency?: number | undefined;
}

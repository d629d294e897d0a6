/** Account balance change records by transaction order number (transactions/service/query). */
import { accountTransactionsServiceQuery } from "@merchantkit/contract";
import type { ApiPromise, RequestOptions, Transport } from "@merchantkit/core";
import { listByServiceIds } from "./list-by-service-ids";
import type {
  AccountTransaction,
  AccountTransactionsQueryParams,
  AccountTransactionsQueryResult,
  ListByServiceIdsOptions,
} from "./types";

export class AccountTransactions {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /**
   * The records of any number of serviceIds (operateRecordIds, payoutIds...): split into calls
   * of at most 100, `concurrency` (default 4) in flight, merged in the order of `ids` with
   * repeats removed. No ids is a RequestValidationError and nothing is sent.
   */
  listByServiceIds(
    ids: readonly string[],
    options?: ListByServiceIdsOptions,
  ): Promise<AccountTransaction[]> {
    return listByServiceIds(this.#transport, ids, options);
  }

  /** One call as the service defines it: 1 to 100 serviceIds, the answer's `list` as it came. */
  query(
    params: AccountTransactionsQueryParams,
    options?: RequestOptions,
  ): ApiPromise<AccountTransactionsQueryResult> {
    return this.#transport.request(accountTransactionsServiceQuery, params, options);
  }
}

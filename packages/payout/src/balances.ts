/** acct/queryAcctCurrency as `balances.list`: the payout balance per currency. */
import { acctQueryAcctCurrency } from "@merchantkit/contract";
import type { ApiPromise, RequestOptions, Transport } from "@merchantkit/core";
import type { Balance, BalanceListParams } from "./types";

export class BalancesResource {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /** Available, frozen and total balance per currency (one currency with `currency`). */
  list(params: BalanceListParams = {}, options?: RequestOptions): ApiPromise<Balance[]> {
    return this.#transport.request(acctQueryAcctCurrency, params, options);
  }
}

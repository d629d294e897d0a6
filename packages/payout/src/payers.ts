/** acct/addPayer and acct/queryPayer as `payers.create` and `payers.list` (size -1 = every payer). */
import { acctAddPayer, acctQueryPayer } from "@merchantkit/contract";
import type { ApiPromise, PagePromise, RequestOptions, Transport } from "@merchantkit/core";
import { payoutList } from "./payout-list";
import type { Payer, PayerCreateParams, PayerId, PayerListParams } from "./types";

export class PayersResource {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /** Registers a payer; answers its id (a string, every digit kept) for `transfers.create`. */
  create(params: PayerCreateParams, options?: RequestOptions): ApiPromise<PayerId> {
    return this.#transport.request(acctAddPayer, params, options);
  }

  /** Payers by filter and sort; `size: -1` fetches every match in one request. */
  list(params: PayerListParams = {}, options?: RequestOptions): PagePromise<Payer> {
    return payoutList({
      transport: this.#transport,
      endpoint: acctQueryPayer,
      params,
      options,
      key: (p) => p.id,
    });
  }
}

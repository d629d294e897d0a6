/** Global Account detail (account/global/getDetail). */
import { accountGlobalGetDetail } from "@merchantkit/contract";
import type { ApiPromise, RequestOptions, Transport } from "@merchantkit/core";
import type { GlobalAccount, GlobalAccountRetrieveParams } from "./types";

export class GlobalAccounts {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /**
   * One Global Account by globalAccountId or globalAccountNo. When both are given the service
   * checks they name the same account (InvalidRequestError otherwise); an answer with
   * `success: false` is always an error, never data.
   */
  retrieve(
    params: GlobalAccountRetrieveParams,
    options?: RequestOptions,
  ): ApiPromise<GlobalAccount> {
    return this.#transport.request(accountGlobalGetDetail, params, options);
  }
}

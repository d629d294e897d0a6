/** acct/queryPaymentMethods as `paymentMethods.list`: the methods open for a destination. */
import { acctQueryPaymentMethods } from "@merchantkit/contract";
import type { ApiPromise, RequestOptions, Transport } from "@merchantkit/core";
import type { PaymentMethodsList, PaymentMethodsListParams } from "./types";

export class PaymentMethodsResource {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /** `{ paymentMethods }` for a destination country, account currency and entity type. */
  list(params: PaymentMethodsListParams, options?: RequestOptions): ApiPromise<PaymentMethodsList> {
    return this.#transport.request(acctQueryPaymentMethods, params, options);
  }
}

/**
 * PayoutClient: one signed transport for the payout area and its resource groups, in the order
 * of the payout process — payment fields and methods, beneficiaries, payers, balances,
 * transfers.
 */
import {
  type ApiPromise,
  createAreaTransport,
  type Endpoint,
  type EndpointParams,
  type EndpointResult,
  type RequestOptions,
  requireMerchantNo,
  signAuth,
  Transport,
} from "@merchantkit/core";
import { BalancesResource } from "./balances";
import { BeneficiariesResource } from "./beneficiaries";
import type { PayoutClientOptions } from "./client-options";
import { PayersResource } from "./payers";
import { PaymentFieldsResource } from "./payment-fields";
import { PaymentMethodsResource } from "./payment-methods";
import { TransfersResource } from "./transfers";

/** Used where the client has no merchantNo: a call must give it in its params. */
class PayoutTransport extends Transport {
  override request<E extends Endpoint>(
    endpoint: E,
    params: EndpointParams<E>,
    options?: RequestOptions,
  ): ApiPromise<EndpointResult<E>> {
    return (
      (endpoint.merchantNo ? requireMerchantNo(params, undefined, PAYOUT_CALLS) : undefined) ??
      super.request(endpoint, params, options)
    );
  }
}

const PAYOUT_CALLS = { calls: "payout", client: "PayoutClient" };

export class PayoutClient {
  readonly paymentFields: PaymentFieldsResource;
  readonly paymentMethods: PaymentMethodsResource;
  readonly beneficiaries: BeneficiariesResource;
  readonly payers: PayersResource;
  readonly balances: BalancesResource;
  readonly transfers: TransfersResource;

  constructor(options: PayoutClientOptions) {
    const transport = createAreaTransport(options, {
      usage: "new PayoutClient({ environment, secretKey, merchantNo })",
      area: "payout",
      userAgent: "merchantkit-payout",
      merchantNo: true,
      own: ["secretKey"],
      auth: ({ secretKey }) => signAuth({ secretKey }),
      transport: (config) =>
        config.merchantNo === undefined ? new PayoutTransport(config) : new Transport(config),
    });
    this.paymentFields = new PaymentFieldsResource(transport);
    this.paymentMethods = new PaymentMethodsResource(transport);
    this.beneficiaries = new BeneficiariesResource(transport);
    this.payers = new PayersResource(transport);
    this.balances = new BalancesResource(transport);
    this.transfers = new TransfersResource(transport);
  }
}

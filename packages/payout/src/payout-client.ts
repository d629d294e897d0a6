/**
 * PayoutClient: one signed transport for the payout area and its resource groups, in the order
 * of the payout process — payment fields and methods, beneficiaries, payers, balances,
 * transfers.
 */
import {
  type ApiPromise,
  ConfigurationError,
  type Endpoint,
  type EndpointParams,
  type EndpointResult,
  type RequestOptions,
  requireMerchantNo,
  resolveBaseUrl,
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
    if (typeof options !== "object" || options === null) {
      throw new ConfigurationError(
        "new PayoutClient({ environment, secretKey, merchantNo }) needs its options",
      );
    }
    const { environment, secretKey, merchantNo, ...transportOptions } = options;
    if (merchantNo !== undefined && (typeof merchantNo !== "string" || merchantNo.length === 0)) {
      throw new ConfigurationError("merchantNo, when given, must be a non-empty string");
    }
    // A wrong environment is a ConfigurationError now, not on the first call.
    resolveBaseUrl(environment, "payout");
    const transport = new (merchantNo === undefined ? PayoutTransport : Transport)({
      ...transportOptions,
      environment,
      auth: signAuth({ secretKey }),
      merchantNo,
      userAgent: transportOptions.userAgent ?? "merchantkit-payout",
    });
    this.paymentFields = new PaymentFieldsResource(transport);
    this.paymentMethods = new PaymentMethodsResource(transport);
    this.beneficiaries = new BeneficiariesResource(transport);
    this.payers = new PayersResource(transport);
    this.balances = new BalancesResource(transport);
    this.transfers = new TransfersResource(transport);
  }
}

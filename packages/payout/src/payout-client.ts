/**
 * PayoutClient: one signed transport for the payout area and its resource groups, in the order
 * of the payout process — payment fields and methods, beneficiaries, payers, balances,
 * transfers.
 */
import {
  ApiPromise,
  ConfigurationError,
  type Endpoint,
  type EndpointParams,
  type EndpointResult,
  type RequestOptions,
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

/**
 * Every payout call carries merchantNo. A client built without one sends only calls that give
 * it in their params; any other is refused before sending with the ConfigurationError issuing's
 * cardholder calls give, saying where to put it (the transport alone would say "merchantNo: is
 * required").
 */
class PayoutTransport extends Transport {
  override request<E extends Endpoint>(
    endpoint: E,
    params: EndpointParams<E>,
    options?: RequestOptions,
  ): ApiPromise<EndpointResult<E>> {
    if (endpoint.merchantNo && lacksMerchantNo(params)) {
      return new ApiPromise(
        Promise.reject(
          new ConfigurationError(
            "merchantNo is required for payout calls: pass it to new PayoutClient({ merchantNo }) or in the params",
          ),
        ),
      );
    }
    return super.request(endpoint, params, options);
  }
}

function lacksMerchantNo(params: unknown): boolean {
  return (
    typeof params === "object" &&
    params !== null &&
    (params as { merchantNo?: unknown }).merchantNo === undefined
  );
}

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

/**
 * PayoutClient: one signed transport for the payout area and its resource groups, in the order
 * of the payout process — payment fields and methods, beneficiaries, payers, balances,
 * transfers.
 */
import { resolveBaseUrl, signAuth, Transport } from "@merchantkit/core";
import { BalancesResource } from "./balances";
import { BeneficiariesResource } from "./beneficiaries";
import type { PayoutClientOptions } from "./client-options";
import { PayersResource } from "./payers";
import { PaymentFieldsResource } from "./payment-fields";
import { PaymentMethodsResource } from "./payment-methods";
import { TransfersResource } from "./transfers";

export class PayoutClient {
  readonly paymentFields: PaymentFieldsResource;
  readonly paymentMethods: PaymentMethodsResource;
  readonly beneficiaries: BeneficiariesResource;
  readonly payers: PayersResource;
  readonly balances: BalancesResource;
  readonly transfers: TransfersResource;

  constructor(options: PayoutClientOptions) {
    const { environment, secretKey, merchantNo, ...transportOptions } = options;
    // A wrong environment is a ConfigurationError now, not on the first call.
    resolveBaseUrl(environment, "payout");
    const transport = new Transport({
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

/** acct/queryPaymentFeild as `paymentFields.retrieve`, plus `check`: a draft against the template. */
import { acctQueryPaymentFeild } from "@merchantkit/contract";
import type { ApiPromise, RequestOptions, Transport } from "@merchantkit/core";
import {
  type BeneficiaryDraft,
  checkBeneficiaryDraft,
  type DraftReport,
} from "./check-beneficiary-draft";
import type { PaymentFieldsRetrieveParams, PaymentFieldTemplate } from "./types";

export class PaymentFieldsResource {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /** The Y/C/N template of receiverInfo, address and accountInfomation for one route. */
  retrieve(
    params: PaymentFieldsRetrieveParams,
    options?: RequestOptions,
  ): ApiPromise<PaymentFieldTemplate> {
    return this.#transport.request(acctQueryPaymentFeild, params, options);
  }

  /**
   * Retrieves the template of the draft's route (bankCountry, payoutCurrency, entityType,
   * paymentMethod) and checks the draft against it, so user input can be corrected before
   * `beneficiaries.create`. Use `checkBeneficiaryDraft` with a template you already hold to
   * check without a request.
   */
  async check(
    draft: BeneficiaryDraft & Omit<PaymentFieldsRetrieveParams, "merchantNo">,
    options?: RequestOptions,
  ): Promise<DraftReport> {
    const template = await this.retrieve(
      {
        payoutCurrency: draft.payoutCurrency,
        bankCountry: draft.bankCountry,
        entityType: draft.entityType,
        paymentMethod: draft.paymentMethod,
        ...(draft.walletType === undefined ? {} : { walletType: draft.walletType }),
      },
      options,
    );
    return checkBeneficiaryDraft(template, draft);
  }
}

/**
 * beneficiary/add, edit, queryDetail and queryList as `beneficiaries.*`, plus findByCardNumber:
 * the service refuses a second beneficiary with the same account (a DuplicateError that
 * carries no id), and the list filtered by card number is how the existing one is found.
 */
import {
  beneficiaryAdd,
  beneficiaryEdit,
  beneficiaryQueryDetail,
  beneficiaryQueryList,
} from "@merchantkit/contract";
import {
  type ApiPromise,
  type PagePromise,
  type RequestOptions,
  RequestValidationError,
  TO_ARRAY_MAX,
  type Transport,
  type WaitOptions,
  waitUntilFinal,
} from "@merchantkit/core";
import { payoutList } from "./payout-list";
import type {
  Beneficiary,
  BeneficiaryCreateParams,
  BeneficiaryListParams,
  BeneficiaryRetrieveParams,
  BeneficiaryStatus,
  BeneficiaryUpdateParams,
} from "./types";

/** Which beneficiaries hold an account: the card (account) number, narrowed like the service's duplicate rule. */
export interface FindByCardNumberParams {
  cardNumber: string;
  bankCountry?: string | undefined;
  payoutCurrency?: string | undefined;
  merchantNo?: string | undefined;
}

/** Review states a beneficiary leaves by itself (provider-notes §2). */
const IN_REVIEW: ReadonlySet<string> = new Set(["WAITING", "PROCESS", "PENDING_UPDATE"]);

export class BeneficiariesResource {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /**
   * Registers a beneficiary (its parts per `paymentFields.retrieve`). Answers the id and the
   * review status; a payout waits for PASS or UNNECESSARY. An existing one with the same
   * account is a DuplicateError: find it with `findByCardNumber`.
   */
  create(params: BeneficiaryCreateParams, options?: RequestOptions): ApiPromise<BeneficiaryStatus> {
    return this.#transport.request(beneficiaryAdd, params, options);
  }

  /** Replaces a beneficiary's fields, keeping its id; it may go back to review. */
  update(params: BeneficiaryUpdateParams, options?: RequestOptions): ApiPromise<BeneficiaryStatus> {
    return this.#transport.request(beneficiaryEdit, params, options);
  }

  /** One beneficiary with its parts decoded and its review status. */
  retrieve(params: BeneficiaryRetrieveParams, options?: RequestOptions): ApiPromise<Beneficiary> {
    return this.#transport.request(beneficiaryQueryDetail, params, options);
  }

  /**
   * Reads the beneficiary until its review is over (any payeeStatus but WAITING, PROCESS and
   * PENDING_UPDATE); answers it: PASS or UNNECESSARY can be paid, REJECT needs an edit. A
   * WaitTimeoutError after `timeoutMs` names the status last seen (not a ConnectionError: nothing
   * needs sending again); `signal` aborts the wait.
   */
  waitForReview(
    beneficiary: string | BeneficiaryRetrieveParams,
    options?: WaitOptions,
  ): Promise<Beneficiary> {
    const params = typeof beneficiary === "string" ? { beneficiaryId: beneficiary } : beneficiary;
    return waitUntilFinal(
      {
        read: (o) => this.retrieve(params, o),
        state: (b) => b.payeeStatus,
        isFinal: (b) => !IN_REVIEW.has(b.payeeStatus.toUpperCase()),
        what: `Beneficiary ${params.beneficiaryId}`,
        path: beneficiaryQueryDetail.path,
      },
      options,
    );
  }

  /** Beneficiaries by payeeStatus, beneficiaryId or cardNumber; `await` a page or `for await` all. */
  list(params: BeneficiaryListParams = {}, options?: RequestOptions): PagePromise<Beneficiary> {
    return payoutList({
      transport: this.#transport,
      endpoint: beneficiaryQueryList,
      params,
      options,
      key: (b) => b.beneficiaryId,
    });
  }

  /**
   * Every beneficiary whose accountInfomation.cardNumber is `cardNumber` (optionally of one
   * bankCountry and payoutCurrency, as the duplicate rule counts them), so the id of the one a
   * duplicate `create` ran into can be reused.
   */
  async findByCardNumber(
    params: FindByCardNumberParams | string,
    options?: RequestOptions,
  ): Promise<Beneficiary[]> {
    const { cardNumber, bankCountry, payoutCurrency, merchantNo } =
      typeof params === "string" ? { cardNumber: params } : params;
    if (typeof cardNumber !== "string" || cardNumber.trim() === "") {
      throw new RequestValidationError([{ path: "cardNumber", message: "must not be empty" }], {
        path: beneficiaryQueryList.path,
      });
    }
    const matches = await this.list(
      { cardNumber: cardNumber.trim(), ...(merchantNo === undefined ? {} : { merchantNo }) },
      options,
    ).toArray({ limit: TO_ARRAY_MAX });
    return matches.filter(
      (b) =>
        (bankCountry === undefined || b.bankCountry === bankCountry) &&
        (payoutCurrency === undefined || b.payoutCurrency === payoutCurrency),
    );
  }
}

/**
 * txn/remittance, txn/query, txn/queryVoucher and txn/queryList as `transfers.*`. create also
 * enforces the one rule the request alone cannot show: feeBearing is required when the
 * beneficiary's method is SWIFT, and the method belongs to the beneficiary, not the request.
 */
import {
  beneficiaryQueryDetail,
  remittanceFeeBearingProblem,
  txnQuery,
  txnQueryList,
  txnQueryVoucher,
  txnRemittance,
} from "@merchantkit/contract";
import {
  ApiPromise,
  type EndpointParams,
  type PagePromise,
  type RequestOptions,
  RequestValidationError,
  type Transport,
  toValidationIssues,
  type WaitOptions,
  type WithResponse,
  waitUntilFinal,
} from "@merchantkit/core";
import * as v from "valibot";
import { payoutList } from "./payout-list";
import type {
  Transfer,
  TransferCreateParams,
  TransferListParams,
  TransferRetrieveParams,
  TransferVoucher,
  TransferVoucherParams,
} from "./types";

type RemittanceParams = EndpointParams<typeof txnRemittance>;

function absent(value: unknown): boolean {
  return value === undefined || value === null;
}

/**
 * Runs the contract's remittance rules before the beneficiary lookup, so a request that would
 * be refused anyway sends nothing at all. The transport fills merchantNo and requestId later;
 * stand-ins take their place here only when they are absent.
 */
function checkBeforeLookup(params: RemittanceParams, options: RequestOptions | undefined): void {
  const probe: Record<string, unknown> = { ...params };
  probe.merchantNo ??= "merchantNo";
  probe.requestId ??= options?.idempotencyKey ?? "requestId";
  const result = v.safeParse(txnRemittance.request, probe);
  if (!result.success) {
    throw new RequestValidationError(toValidationIssues(result.issues), {
      path: txnRemittance.path,
    });
  }
}

export class TransfersResource {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /**
   * Sends a payout to a beneficiary in PASS or UNNECESSARY. `requestId` (≤ 32 characters) is
   * generated when absent and the same one is sent on every retry. Without `feeBearing`, the
   * SWIFT rule needs the beneficiary's method: give it as `beneficiaryPaymentMethod` (not
   * sent), or the client reads the beneficiary first (one beneficiary/queryDetail call).
   * The answer is the payout in P; the result comes by `retrieve` or the notification.
   */
  create(params: TransferCreateParams, options?: RequestOptions): ApiPromise<Transfer> {
    return new ApiPromise(this.#create(params, options));
  }

  async #create(
    params: TransferCreateParams,
    options: RequestOptions | undefined,
  ): Promise<WithResponse<Transfer>> {
    const { beneficiaryPaymentMethod, ...remittance } = params;
    // With feeBearing given the rule holds whatever the method, so no lookup is needed.
    if (absent(remittance.feeBearing)) {
      let method = beneficiaryPaymentMethod;
      if (method === undefined) {
        checkBeforeLookup(remittance, options);
        const beneficiary = await this.#transport.request(
          beneficiaryQueryDetail,
          {
            beneficiaryId: remittance.beneficiaryId,
            ...(remittance.merchantNo === undefined ? {} : { merchantNo: remittance.merchantNo }),
          },
          options,
        );
        method = beneficiary.paymentMethod;
      }
      const problem = remittanceFeeBearingProblem(remittance, method);
      if (problem) {
        throw new RequestValidationError(
          [{ path: "feeBearing", message: problem.replace(/^feeBearing /, "") }],
          { path: txnRemittance.path },
        );
      }
    }
    return this.#transport.request(txnRemittance, remittance, options).withResponse();
  }

  /** One payout by requestId or payoutId: status P/S/F, amounts, fee, error. */
  retrieve(params: TransferRetrieveParams, options?: RequestOptions): ApiPromise<Transfer> {
    return this.#transport.request(txnQuery, params, options);
  }

  /**
   * Reads the payout (by payoutId, or `{ requestId }`) until it is S or F; answers it. A
   * WaitTimeoutError after `timeoutMs` names the status last seen (not a ConnectionError: nothing
   * needs sending again); `signal` aborts the wait.
   */
  waitForResult(payout: string | TransferRetrieveParams, options?: WaitOptions): Promise<Transfer> {
    const params = typeof payout === "string" ? { payoutId: payout } : payout;
    return waitUntilFinal(
      {
        read: (o) => this.retrieve(params, o),
        state: (t) => t.payoutStatus,
        isFinal: (t) => t.payoutStatus === "S" || t.payoutStatus === "F",
        what: `Payout ${params.payoutId ?? params.requestId}`,
        path: txnQuery.path,
      },
      options,
    );
  }

  /** The receipt of a successful (S) payout: a URL and/or the file in Base64. */
  retrieveVoucher(
    params: TransferVoucherParams,
    options?: RequestOptions,
  ): ApiPromise<TransferVoucher> {
    return this.#transport.request(txnQueryVoucher, params, options);
  }

  /** Payouts created in a window ("YYYY-MM-DD HH:mm:ss"), filtered; `await` a page or `for await` all. */
  list(params: TransferListParams, options?: RequestOptions): PagePromise<Transfer> {
    return payoutList({
      transport: this.#transport,
      endpoint: txnQueryList,
      params,
      options,
      key: (t) => t.payoutId,
    });
  }
}

/**
 * ProfitShareClient: share a completed payment's proceeds, reverse a share (both one wire call,
 * /profit/share, with profitType set here), and query the result — which arrives later: an
 * accepted share is still "processing".
 */
import { type ContractEndpoint, profitQuery, profitShare } from "@merchantkit/contract";
import {
  ApiPromise,
  createAreaTransport,
  type EndpointParams,
  type EndpointResult,
  type RequestOptions,
  requireMerchantNo,
  signAuth,
  type Transport,
} from "@merchantkit/core";
import type { ProfitShareClientOptions } from "./client-options";
import { type SignedEndpoint, signedEndpoint } from "./response-sign";
import type {
  FinalProfitShareResult,
  ProfitShareQueryParams,
  ProfitShareRequest,
  ProfitShareResult,
  ReverseParams,
  ShareParams,
} from "./types";
import { type WaitForResultOptions, waitForFinal } from "./wait-for-result";

const PROFIT_SHARE_CALLS = { calls: "profit-share", client: "ProfitShareClient" };

export class ProfitShareClient {
  readonly #transport: Transport;
  readonly #share: SignedEndpoint<typeof profitShare> | undefined;
  readonly #query: SignedEndpoint<typeof profitQuery> | undefined;
  readonly #merchantNo: string | undefined;

  constructor(options: ProfitShareClientOptions) {
    this.#transport = createAreaTransport(options, {
      usage: "new ProfitShareClient({ environment, secretKey, merchantNo })",
      area: "profitShare",
      userAgent: "merchantkit-profit-share",
      merchantNo: true,
      own: ["secretKey", "verifyResponseSign"],
      auth: ({ secretKey }) => signAuth({ secretKey }),
    });
    const { secretKey, merchantNo, verifyResponseSign } = options;
    this.#merchantNo = merchantNo;
    if (verifyResponseSign) {
      this.#share = signedEndpoint(profitShare, secretKey);
      this.#query = signedEndpoint(profitQuery, secretKey);
    }
  }

  /**
   * Shares the proceeds of the payment `gatewayReference` among `receivers`. Send
   * `profitCompleted: true` with the last share: the payment then takes no more. profitReference
   * (the idempotency key) is generated when absent and kept across retries. The answer is the
   * accepted share in state "processing".
   */
  share(params: ShareParams, options?: RequestOptions): ApiPromise<ProfitShareResult> {
    return this.#send({ ...params, profitType: "share" } as ProfitShareRequest, options);
  }

  /**
   * Reverses (part of) the share named by `profitGatewayReference` and `profitParentReference`
   * (its profitReference); each receiver's account gives back at most what it got. Answered
   * in state "processing" like a share.
   */
  reverse(params: ReverseParams, options?: RequestOptions): ApiPromise<ProfitShareResult> {
    return this.#send({ ...params, profitType: "return" } as ProfitShareRequest, options);
  }

  /** The current result of a share or reversal, by profitReference or profitGatewayReference. */
  query(params: ProfitShareQueryParams, options?: RequestOptions): ApiPromise<ProfitShareResult> {
    return this.#call(profitQuery, this.#query, params, options);
  }

  /**
   * Queries until the share or reversal is final (success, failed or partial), pausing
   * `intervalMs` between queries; a WaitTimeoutError after `timeoutMs` (not a ConnectionError:
   * the share was accepted, nothing needs sending again).
   */
  waitForResult(
    params: ProfitShareQueryParams,
    options?: WaitForResultOptions,
  ): Promise<FinalProfitShareResult> {
    return waitForFinal((requestOptions) => this.query(params, requestOptions), options);
  }

  #send(params: ProfitShareRequest, options: RequestOptions | undefined) {
    return this.#call(profitShare, this.#share, params, options);
  }

  #call<E extends ContractEndpoint>(
    endpoint: E,
    signed: SignedEndpoint<E> | undefined,
    params: EndpointParams<E>,
    options: RequestOptions | undefined,
  ): ApiPromise<EndpointResult<E>> {
    // Every profit-share call carries merchantNo.
    const refused = requireMerchantNo(params, this.#merchantNo, PROFIT_SHARE_CALLS);
    if (refused) return refused;
    if (!signed) return this.#transport.request(endpoint, params, options);
    const checked = this.#transport
      .request(signed.endpoint, params, options)
      .withResponse()
      .then(async (answer) => {
        await signed.verify(answer.data, answer.response.idempotencyKey);
        return answer;
      });
    return new ApiPromise(checked);
  }
}

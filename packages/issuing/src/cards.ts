/**
 * Cards: create (card/createCard), deposit, return balance (card/returnCardBalance), and
 * freeze / unfreeze / terminate, which are card/operate with its `type`. Writes carry a
 * clientRequestId, generated when absent and repeated unchanged on every retry, so a retry
 * never creates a second card or moves money twice.
 */
import {
  cardCreateCard,
  cardDeposit,
  cardOperate,
  cardReturnCardBalance,
} from "@merchantkit/contract";
import type { ApiPromise, RequestOptions, Transport } from "@merchantkit/core";
import type {
  CardCreated,
  CardCreateParams,
  CardDepositParams,
  CardOperateParams,
  CardOperationAccepted,
  CardReturnBalanceParams,
} from "./types";

type OperateType = "FREEZE" | "UNFREEZE" | "TERMINATE";

export class Cards {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /** Issues a card of `productId` to a cardholder, funded with `amount` (> 0, ≤ 2 decimals). */
  create(params: CardCreateParams, options?: RequestOptions): ApiPromise<CardCreated> {
    return this.#transport.request(cardCreateCard, params, options);
  }

  /** Moves `amount` from the merchant account onto the card. */
  deposit(params: CardDepositParams, options?: RequestOptions): ApiPromise<CardOperationAccepted> {
    return this.#transport.request(cardDeposit, params, options);
  }

  /** Moves `amount` of the card's balance back to the merchant account. */
  returnBalance(
    params: CardReturnBalanceParams,
    options?: RequestOptions,
  ): ApiPromise<CardOperationAccepted> {
    return this.#transport.request(cardReturnCardBalance, params, options);
  }

  freeze(params: CardOperateParams, options?: RequestOptions): ApiPromise<CardOperationAccepted> {
    return this.#operate("FREEZE", params, options);
  }

  unfreeze(params: CardOperateParams, options?: RequestOptions): ApiPromise<CardOperationAccepted> {
    return this.#operate("UNFREEZE", params, options);
  }

  /** Ends the card for good; the remaining balance goes back to the merchant account. */
  terminate(
    params: CardOperateParams,
    options?: RequestOptions,
  ): ApiPromise<CardOperationAccepted> {
    return this.#operate("TERMINATE", params, options);
  }

  #operate(
    type: OperateType,
    params: CardOperateParams,
    options: RequestOptions | undefined,
  ): ApiPromise<CardOperationAccepted> {
    // The method names the type; anything else leaves params as they are for the contract to judge.
    const isObject = typeof params === "object" && params !== null && !Array.isArray(params);
    return this.#transport.request(
      cardOperate,
      isObject ? { ...params, type } : (params as unknown as { cardId: string; type: OperateType }),
      options,
    );
  }
}

/** Card transactions (queryTxnList): authorizations, clearings, reversals, refunds, verifications. */
import { queryTxnList } from "@merchantkit/contract";
import type { PagePromise, RequestOptions, Transport } from "@merchantkit/core";
import { issuingList } from "./issuing-list";
import type { CardTransaction, CardTransactionListParams } from "./types";

export class CardTransactions {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /**
   * Card transactions filtered by type, status, card and a transactionTime window (Date or
   * epoch seconds). Times in records are epoch ms: `new Date(txn.transactionTime)`.
   */
  list(params?: CardTransactionListParams, options?: RequestOptions): PagePromise<CardTransaction> {
    return issuingList({
      transport: this.#transport,
      endpoint: queryTxnList,
      params,
      options,
      // Type and order number together: a clearing never hides the authorization it belongs to.
      key: (txn) => `${txn.txnType}:${txn.txnOrderNo}`,
    });
  }
}

/**
 * 3DS value deliveries (card/query3dsNotify). `card3dsValues` is the verification code itself:
 * core redacts it from every log line, event and error; the records hold it for the caller.
 */
import { cardQuery3dsNotify } from "@merchantkit/contract";
import type { PagePromise, RequestOptions, Transport } from "@merchantkit/core";
import { issuingList } from "./issuing-list";
import type { ThreeDsDelivery, ThreeDsListParams } from "./types";

export class ThreeDs {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /** Deliveries filtered by txnOrderNo, cardId (both ≤ 64 characters) and a sendTime window. */
  list(params?: ThreeDsListParams, options?: RequestOptions): PagePromise<ThreeDsDelivery> {
    return issuingList({
      transport: this.#transport,
      endpoint: cardQuery3dsNotify,
      params,
      options,
      // A delivery has no id of its own; a resend of the same code differs in its sendTime.
      key: (d) => `${d.txnOrderNo}|${d.cardId}|${d.sendTime ?? ""}|${d.type ?? ""}`,
    });
  }
}

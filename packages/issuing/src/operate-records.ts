/** Card operation records (card/getOperateRecordList): how each create, deposit, freeze... ended. */
import { cardGetOperateRecordList } from "@merchantkit/contract";
import {
  type PagePromise,
  type RequestOptions,
  type Transport,
  type WaitOptions,
  waitUntilFinal,
} from "@merchantkit/core";
import { issuingList } from "./issuing-list";
import type { CardOperateRecord, OperateRecordListParams } from "./types";

export class OperateRecords {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /**
   * Operation records of one card (`cardId`) or of all the merchant's cards, filtered by
   * clientRequestId, type and an operateTime window (Date or epoch seconds).
   */
  list(params?: OperateRecordListParams, options?: RequestOptions): PagePromise<CardOperateRecord> {
    return issuingList({
      transport: this.#transport,
      endpoint: cardGetOperateRecordList,
      params,
      options,
      key: (record) => record.operateRecordId,
    });
  }

  /**
   * Reads the operation (the operateRecordId a create, deposit, freeze... answered) until it is
   * S or F; answers its record. Before the next operation on a card, wait for this one: the
   * service refuses an unfreeze while the freeze is still P. The list has no id filter, so give
   * `cardId` (or the `clientRequestId` sent) to read one card's records instead of all. A
   * WaitTimeoutError after `timeoutMs` names the status last seen (not a ConnectionError: nothing
   * needs sending again); `signal` aborts the wait.
   */
  waitFor(
    operateRecordId: string,
    options: WaitOptions & {
      cardId?: string | undefined;
      clientRequestId?: string | undefined;
    } = {},
  ): Promise<CardOperateRecord> {
    const { cardId, clientRequestId, ...wait } = options;
    const filter = {
      ...(cardId === undefined ? {} : { cardId }),
      ...(clientRequestId === undefined ? {} : { clientRequestId }),
    };
    return waitUntilFinal<CardOperateRecord | undefined>(
      {
        read: async (o) => {
          for await (const record of this.list(filter, o))
            if (record.operateRecordId === operateRecordId) return record;
          return undefined; // not listed yet
        },
        state: (r) => r?.status ?? "not listed yet",
        isFinal: (r) => r?.status === "S" || r?.status === "F",
        what: `Operation ${operateRecordId}`,
        path: cardGetOperateRecordList.path,
      },
      wait,
    ) as Promise<CardOperateRecord>;
  }
}

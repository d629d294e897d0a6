/** Card operation records (card/getOperateRecordList): how each create, deposit, freeze... ended. */
import { cardGetOperateRecordList } from "@merchantkit/contract";
import type { PagePromise, RequestOptions, Transport } from "@merchantkit/core";
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
}

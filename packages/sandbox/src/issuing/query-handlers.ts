/**
 * The three issuing queries. Each filters a time window given in UTC seconds, both ends
 * inclusive to the second (operateTime for operate records, transactionTime for card
 * transactions, sendTime for 3DS deliveries), orders by that time then id, ascending, and
 * pages with pageNum/pageSize. A page costs the same whatever the number of records
 * (record-log.ts), and a record whose status changes keeps its place.
 */
import { cardGetOperateRecordList, cardQuery3dsNotify, queryTxnList } from "@merchantkit/contract";
import { type AnyHandler, handle } from "../runtime/area";
import { cardTxnApp, operateRecordApp, threeDsApp } from "./issuing-app-form";
import type { IssuingContext } from "./issuing-context";
import type { LogPage, LogQuery, RecordLog } from "./record-log";
import type { Sequenced } from "./sorted-log";

function seconds(value: Date | number | undefined): number | undefined {
  if (value === undefined) return undefined;
  return typeof value === "number" ? value : Math.floor(value.getTime() / 1000);
}

/** [fromMs, toMs] of a window in UTC seconds: the whole end second is included. */
export function windowMs(startTime?: Date | number, endTime?: Date | number): [number, number] {
  const start = seconds(startTime);
  const end = seconds(endTime);
  return [
    start === undefined ? Number.NEGATIVE_INFINITY : start * 1000,
    end === undefined ? Number.POSITIVE_INFINITY : end * 1000 + 999,
  ];
}

interface PageParams {
  startTime?: Date | number | undefined;
  endTime?: Date | number | undefined;
  pageNum: number;
  pageSize: number;
}

function pageOf<T extends Sequenced, R>(
  log: RecordLog<T>,
  p: PageParams,
  filters: Pick<LogQuery<T>, "keys" | "match">,
  toApp: (item: T) => R,
) {
  const [fromMs, toMs] = windowMs(p.startTime, p.endTime);
  const page: LogPage<T> = log.page({
    ...filters,
    fromMs,
    toMs,
    pageNum: p.pageNum,
    pageSize: p.pageSize,
  });
  return {
    totalRecords: page.total,
    pageSize: p.pageSize,
    current: p.pageNum,
    pageNum: p.pageNum,
    totalPages: Math.ceil(page.total / p.pageSize),
    records: page.items.map(toApp),
  };
}

/** A cardId filter naming another merchant's card (or none) finds nothing. */
function ownCardId(ctx: IssuingContext, cardId: string | undefined) {
  if (cardId === undefined) return undefined;
  const card = ctx.state.cards.get(cardId);
  return card && card.merchantNo === ctx.runtime.config.merchantNo ? cardId : "";
}

export function queryHandlers(ctx: IssuingContext): [string, AnyHandler][] {
  const { state } = ctx;
  return [
    handle(cardGetOperateRecordList, (p) =>
      pageOf(
        state.operations,
        p,
        {
          keys: {
            cardId: ownCardId(ctx, p.cardId),
            clientRequestId: p.clientRequestId,
            type: p.type,
          },
        },
        operateRecordApp,
      ),
    ),
    handle(queryTxnList, (p) => {
      const status = p.txnStatus;
      return pageOf(
        state.transactions,
        p,
        {
          keys: { cardId: ownCardId(ctx, p.cardId), txnType: p.txnType },
          match:
            status === undefined
              ? undefined
              : { id: `status=${status}`, test: (t) => t.txnStatus === status },
        },
        cardTxnApp,
      );
    }),
    handle(cardQuery3dsNotify, (p) =>
      pageOf(
        state.threeDs,
        p,
        { keys: { cardId: ownCardId(ctx, p.cardId), txnOrderNo: p.txnOrderNo } },
        threeDsApp,
      ),
    ),
  ];
}

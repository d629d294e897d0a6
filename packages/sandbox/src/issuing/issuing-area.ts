/**
 * The issuing area: cardholders, cards and their operations settling on the virtual clock,
 * card transactions driven by the admin routes and the generator, 3DS deliveries, the three
 * paged queries, and cardOperate/cardTransaction events. `createIssuingArea` is what
 * areas.ts lists; the returned area also exposes its state for the generator and benchmarks.
 */
import type { Area, Runtime } from "../runtime/area";
import { cardHandlers } from "./card-handlers";
import { cardholderHandlers } from "./cardholder-handlers";
import { issuingAdmin } from "./issuing-admin";
import {
  cardApp,
  cardholderApp,
  cardTxnApp,
  operateRecordApp,
  threeDsApp,
} from "./issuing-app-form";
import type { IssuingContext } from "./issuing-context";
import { IssuingState } from "./issuing-state";
import { queryHandlers } from "./query-handlers";

export interface IssuingArea extends Area {
  name: "issuing";
  state: IssuingState;
}

export function createIssuingArea(runtime: Runtime): IssuingArea {
  const ctx: IssuingContext = { runtime, state: new IssuingState() };
  const { state } = ctx;
  return {
    name: "issuing",
    state,
    handlers: new Map([...cardholderHandlers(ctx), ...cardHandlers(ctx), ...queryHandlers(ctx)]),
    admin: issuingAdmin(ctx),
    dump: () => ({
      cardholders: [...state.cardholders.values()].map((h) => ({
        ...cardholderApp(h),
        merchantNo: h.merchantNo,
      })),
      cards: [...state.cards.values()].map(cardApp),
      operateRecords: state.operations.all.items.map(operateRecordApp),
      cardTransactions: state.transactions.all.items.map(cardTxnApp),
      threeDsDeliveries: state.threeDs.all.items.map(threeDsApp),
    }),
  };
}

/**
 * The profit-share area: shares and returns of completed payments (registered through admin),
 * settling on the virtual clock with signed results and result notifications.
 * `createProfitShareArea` is what areas.ts lists.
 */
import type { Area, AreaFactory } from "../runtime/area";
import { profitShareAdmin } from "./profit-share-admin";
import { profitShareHandlers } from "./profit-share-handlers";
import { resultOf } from "./profit-share-result";

/** Drops undefined properties, so the dump shows only what is set. */
function compact<T extends Record<string, unknown>>(value: T): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
}

import { ProfitShareState } from "./profit-share-state";

export const createProfitShareArea: AreaFactory = (runtime): Area => {
  const state = new ProfitShareState();
  return {
    name: "profitShare",
    handlers: new Map(profitShareHandlers({ runtime, state })),
    admin: profitShareAdmin(runtime, state),
    dump: () => ({
      payments: [...state.payments.values()].map((p) => compact({ ...p })),
      shares: [...state.operations.values()].map((op) =>
        compact({
          ...resultOf(op),
          receivers: op.receivers.map((r) =>
            compact({ ...r.result, account: r.account, description: r.description }),
          ),
          merchantNo: op.merchantNo,
          gatewayReference: op.gatewayReference,
          profitCompleted: op.profitCompleted,
          parentGatewayReference: op.parentGatewayReference,
          urlCallback: op.urlCallback,
        }),
      ),
    }),
  };
};

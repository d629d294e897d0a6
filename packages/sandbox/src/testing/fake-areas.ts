/**
 * Small stand-in areas for the server's own tests: a few handlers per area that exercise the
 * pipeline (an effect counter for idempotency, a scheduled settle that pushes an event, a
 * handler that breaks its response contract, a SandboxError), admin routes that push
 * notifications, and a dump holding a 64-bit id. Not the real simulation.
 */

import {
  accountGlobalGetDetail,
  accountTransactionsServiceQuery,
  acctQueryAcctCurrency,
  cardDeposit,
  cardOperate,
  profitQuery,
} from "@merchantkit/contract";
import type { Hono } from "hono";
import { type AnyHandler, type AreaFactory, handle } from "../runtime/area";
import { fail, SandboxError } from "../runtime/sandbox-error";

export const BIG_ID = "1953712585351499776";

/** What the fake areas did, for assertions. */
export interface FakeEffects {
  operations: { operateRecordId: string; clientRequestId: string; merchantNo: string }[];
  settled: string[];
  calls: { endpoint: string; merchantNo: string }[];
}

export function fakeAreas(effects: FakeEffects = newEffects()): AreaFactory[] {
  const issuing: AreaFactory = (runtime) => {
    const handlers = new Map<string, AnyHandler>([
      handle(cardOperate, (params, call) => {
        if (params.cardId === "404") fail("80001", "card not found");
        const operateRecordId = runtime.ids.next();
        effects.operations.push({
          operateRecordId,
          clientRequestId: params.clientRequestId,
          merchantNo: call.merchantNo,
        });
        runtime.scheduler.at(call.now + runtime.config.settleDelayMs, () => {
          effects.settled.push(operateRecordId);
          runtime.outbox.issuingEvent("issuing.cardOperateEvent", {
            operateRecordId,
            cardId: params.cardId,
            clientRequestId: params.clientRequestId,
            type: params.type,
            status: "S",
          });
        });
        return { operateRecordId };
      }),
      // A sandbox bug on purpose: the id is not digits, so encoding the answer fails.
      handle(cardDeposit, () => ({ operateRecordId: "not-an-id" })),
    ]);
    return {
      name: "issuing",
      handlers,
      admin(app: Hono) {
        app.post("/push", async (c) => {
          const n = Number(c.req.query("n") ?? "1");
          for (let i = 0; i < n; i++) {
            runtime.outbox.issuingEvent("issuing.cardOperateEvent", {
              operateRecordId: runtime.ids.next(),
              cardId: BIG_ID,
              clientRequestId: `push-${i}`,
              type: "FREEZE",
              status: "S",
            });
          }
          return c.json({ pushed: n });
        });
      },
      dump: () => ({ operations: [...effects.operations], bigId: BIG_ID }),
    };
  };

  const account: AreaFactory = (runtime) => ({
    name: "account",
    handlers: new Map<string, AnyHandler>([
      handle(accountGlobalGetDetail, (params, call) => {
        effects.calls.push({ endpoint: "getDetail", merchantNo: call.merchantNo });
        if (params.globalAccountNo === "missing") {
          throw new SandboxError("40004", "global account not found");
        }
        return { globalAccountId: params.globalAccountId ?? BIG_ID, status: "Active" };
      }),
      handle(accountTransactionsServiceQuery, (params, call) => {
        effects.calls.push({ endpoint: "transactions", merchantNo: call.merchantNo });
        return { list: params.serviceIds.flatMap((id) => [...runtime.ledger.byServiceId(id)]) };
      }),
    ]),
    dump: () => ({}),
  });

  const payout: AreaFactory = (runtime) => ({
    name: "payout",
    handlers: new Map<string, AnyHandler>([
      handle(acctQueryAcctCurrency, (params, call) => {
        effects.calls.push({ endpoint: "queryAcctCurrency", merchantNo: call.merchantNo });
        return Object.entries(runtime.ledger.balances())
          .filter(([currency]) => !params.currency || currency === params.currency)
          .map(([currency, availableBalance]) => ({ currency, availableBalance }));
      }),
    ]),
    admin(app: Hono) {
      app.post("/push-result", (c) => {
        runtime.outbox.payoutResult({
          payoutId: BIG_ID,
          requestId: "R-1",
          payoutStatus: "S",
          status: "success",
          sourceAmount: "100.10",
        });
        return c.json({ pushed: 1 });
      });
    },
    dump: () => ({}),
  });

  const profitShare: AreaFactory = (runtime) => ({
    name: "profitShare",
    handlers: new Map<string, AnyHandler>([
      handle(profitQuery, (params) => ({
        profitType: "share",
        profitReference: params.profitReference ?? "P-1",
        profitGatewayReference: BIG_ID,
        state: "processing",
        currency: "USD",
        receivers: [],
      })),
    ]),
    admin(app: Hono) {
      app.post("/push-result", (c) => {
        runtime.outbox.profitShareResult(
          {
            profitType: "share",
            profitReference: "P-1",
            profitGatewayReference: BIG_ID,
            state: "success",
            currency: "USD",
            receivers: [],
          },
          c.req.query("url"),
        );
        return c.json({ pushed: 1 });
      });
    },
    dump: () => ({}),
  });

  return [payout, account, issuing, profitShare];
}

export function newEffects(): FakeEffects {
  return { operations: [], settled: [], calls: [] };
}

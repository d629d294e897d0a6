/**
 * /profit/share (profitType share or return) and /profit/query. Checks, in order:
 * profitReference never used before by any merchant or operation (40900; identical repeats of
 * one merchant never get here, the server replays them), then for a share: the payment exists
 * for this merchant (40400), is enabled for profit share (42201), is not closed (42202), has
 * the same currency (40000) and a notify URL somewhere (40000), and holds enough (42203); for a
 * return: the two references name a share of this merchant (40401), same currency (40000), and
 * each account gives back at most what the share still holds for it (42203).
 */
import {
  type AppOf,
  profitQuery,
  profitShare,
  type profitShareReturnRequest,
  type profitShareShareRequest,
} from "@merchantkit/contract";
import { addDecimal, compareDecimal, subtractDecimal, sumDecimals } from "@merchantkit/core";
import { type AnyHandler, type CallContext, handle, type Runtime } from "../runtime/area";
import { fail } from "../runtime/sandbox-error";
import { heldByAccount, sharedOfPayment } from "./profit-share-amounts";
import { formatProfitTime, signedResultOf } from "./profit-share-result";
import { scheduleProfitSettlement } from "./profit-share-settle";
import type { ProfitOperation, ProfitPayment, ProfitShareState } from "./profit-share-state";

type ShareRequest = AppOf<typeof profitShareShareRequest>;
type ReturnRequest = AppOf<typeof profitShareReturnRequest>;
type Receivers = ShareRequest["receivers"];

interface Ctx {
  runtime: Runtime;
  state: ProfitShareState;
}

function requireNotifyUrl(urlCallback: string | undefined, payment: ProfitPayment | undefined) {
  const url = urlCallback ?? payment?.profitShareNotifyUrl;
  if (url === undefined) {
    fail("40000", "urlCallback is required: the payment has no profitShareNotifyUrl");
  }
  return url;
}

function rejectRepeatedDetails(receivers: Receivers): void {
  const seen = new Set<string>();
  for (const r of receivers) {
    if (seen.has(r.profitDetailReference)) {
      fail("40000", `receivers: profitDetailReference ${r.profitDetailReference} appears twice`);
    }
    seen.add(r.profitDetailReference);
  }
}

function accept(
  ctx: Ctx,
  call: CallContext,
  p: ShareRequest | ReturnRequest,
  fields: Pick<ProfitOperation, "gatewayReference" | "profitCompleted" | "parentGatewayReference">,
  notifyUrl: string,
) {
  const createdAt = formatProfitTime(call.now);
  const op: ProfitOperation = {
    profitType: p.profitType,
    merchantNo: call.merchantNo,
    profitReference: p.profitReference,
    profitGatewayReference: ctx.runtime.ids.next(),
    state: "processing",
    currency: p.currency,
    receivers: p.receivers.map((r) => ({
      account: r.account,
      description: r.description,
      result: {
        profitDetailReference: r.profitDetailReference,
        profitDetailGatewayReference: ctx.runtime.ids.next(),
        type: r.type,
        amount: r.amount,
        result: "pending",
        failReason: null,
        createdAt,
        finishedAt: null,
      },
    })),
    urlCallback: p.urlCallback,
    ...fields,
    createdAt: call.now,
  };
  ctx.state.add(op);
  scheduleProfitSettlement(ctx.runtime, ctx.state, op, notifyUrl);
  return signedResultOf(op, ctx.runtime.config.secretKey);
}

function share(ctx: Ctx, p: ShareRequest, call: CallContext) {
  const payment = ctx.state.payments.get(p.gatewayReference);
  if (!payment || payment.merchantNo !== call.merchantNo) fail("40400", "payment not found");
  if (!payment.profitShare) fail("42201", "payment is not enabled for profit share");
  if (payment.completed) fail("42202", "profit share already completed for this payment");
  if (p.currency !== payment.currency) {
    fail("40000", `currency must be the payment's currency ${payment.currency}`);
  }
  const notifyUrl = requireNotifyUrl(p.urlCallback, payment);
  rejectRepeatedDetails(p.receivers);
  const requested = sumDecimals(p.receivers.map((r) => r.amount));
  const available = subtractDecimal(
    payment.amount,
    sharedOfPayment(ctx.state, payment.gatewayReference),
  );
  if (compareDecimal(requested, available) > 0) {
    fail(
      "42203",
      `receivers total ${requested} exceeds the ${available} ${payment.currency} left to share`,
    );
  }
  if (p.profitCompleted) payment.completed = true;
  return accept(
    ctx,
    call,
    p,
    { gatewayReference: payment.gatewayReference, profitCompleted: p.profitCompleted },
    notifyUrl,
  );
}

function reverse(ctx: Ctx, p: ReturnRequest, call: CallContext) {
  const original = ctx.state.operations.get(p.profitGatewayReference);
  if (
    original?.profitType !== "share" ||
    original.merchantNo !== call.merchantNo ||
    original.profitReference !== p.profitParentReference
  ) {
    fail("40401", "original profit share not found");
  }
  if (p.currency !== original.currency) {
    fail("40000", `currency must be the original share's currency ${original.currency}`);
  }
  const payment = ctx.state.payments.get(original.gatewayReference);
  const notifyUrl = requireNotifyUrl(p.urlCallback ?? original.urlCallback, payment);
  rejectRepeatedDetails(p.receivers);
  const held = heldByAccount(ctx.state, original);
  const asked = new Map<string, string>();
  for (const r of p.receivers)
    asked.set(r.account, addDecimal(asked.get(r.account) ?? "0", r.amount));
  for (const [account, amount] of asked) {
    const holds = held.get(account) ?? "0";
    if (compareDecimal(amount, holds) > 0) {
      fail(
        "42203",
        `return of ${amount} from account ${account} exceeds the ${holds} the share holds for it`,
      );
    }
  }
  return accept(
    ctx,
    call,
    p,
    {
      gatewayReference: original.gatewayReference,
      parentGatewayReference: original.profitGatewayReference,
    },
    notifyUrl,
  );
}

export function profitShareHandlers(ctx: Ctx): [string, AnyHandler][] {
  return [
    handle(profitShare, (p, call) => {
      if (ctx.state.byReference.has(p.profitReference)) {
        fail("40900", "duplicate profitReference");
      }
      return p.profitType === "share"
        ? share(ctx, p as ShareRequest, call)
        : reverse(ctx, p as ReturnRequest, call);
    }),
    handle(profitQuery, (p, call) => {
      const byRef =
        p.profitReference === undefined
          ? undefined
          : ctx.state.byProfitReference(p.profitReference);
      const byGateway =
        p.profitGatewayReference === undefined
          ? undefined
          : ctx.state.operations.get(p.profitGatewayReference);
      const op = byRef ?? byGateway;
      if (
        !op ||
        op.merchantNo !== call.merchantNo ||
        (p.profitReference !== undefined &&
          p.profitGatewayReference !== undefined &&
          byRef !== byGateway)
      ) {
        fail("40401", "profit share not found");
      }
      return signedResultOf(op, ctx.runtime.config.secretKey);
    }),
  ];
}

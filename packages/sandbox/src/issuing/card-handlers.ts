/**
 * card/createCard, card/deposit, card/operate and card/returnCardBalance. What can be refused
 * at once is (unknown cardholder, card or product, amount limits, card count, merchant
 * balance, a card in the wrong state); everything else is decided when the operation settles
 * (operation-lifecycle.ts), which is where a return larger than the card balance fails.
 */

import {
  cardCreateCard,
  cardDeposit,
  cardOperate,
  cardReturnCardBalance,
} from "@merchantkit/contract";
import { fromMinorUnits, toMinorUnits } from "@merchantkit/core";
import { type AnyHandler, handle } from "../runtime/area";
import { fail } from "../runtime/sandbox-error";
import type { IssuingContext } from "./issuing-context";
import type { Card } from "./issuing-records";
import { newCard } from "./new-card";
import { startOperation } from "./operation-lifecycle";
import { operationFees } from "./operation-money";
import type { ProductTerms } from "./products";

/**
 * A card of the merchant, or 81001 (the same answer for a card of another merchant). The
 * issuing merchant is the ApiKey's, the configured one: card calls carry no merchantNo.
 */
export function callerCard(ctx: IssuingContext, cardId: string): Card {
  const card = ctx.state.cards.get(cardId);
  if (!card || card.merchantNo !== ctx.runtime.config.merchantNo) fail("81001", "card not found");
  return card;
}

function notTerminated(card: Card): void {
  if (card.status === "TERMINATED") fail("40000", "card is terminated");
}

/** 80009 below the product's minimum, 80008 above its maximum. */
function checkLimits(terms: ProductTerms, units: bigint): void {
  const p = terms.product;
  if (units < terms.minUnits) fail("80009", `amount is below the minimum ${p.minAmount}`);
  if (units > terms.maxUnits) fail("80008", `amount is above the maximum ${p.maxAmount}`);
}

/** 80007 unless the merchant account covers the amount and its fees in the card currency. */
function checkFunds(ctx: IssuingContext, card: Card, type: "CREATE" | "DEPOSIT", units: bigint) {
  const fees = operationFees(card, type, units);
  let total = units;
  for (const fee of fees) total += toMinorUnits(fee.feeAmount, card.terms.scale);
  if (!ctx.runtime.ledger.covers(card.currency, fromMinorUnits(total, card.terms.scale))) {
    fail("80007", "merchant balance not enough");
  }
}

export function cardHandlers(ctx: IssuingContext): [string, AnyHandler][] {
  const { state, runtime } = ctx;
  return [
    handle(cardCreateCard, (p, call) => {
      const holder = state.cardholders.get(p.cardholderId);
      if (!holder || holder.merchantNo !== runtime.config.merchantNo) {
        fail("80001", "cardholder not found");
      }
      const terms = state.products.get(p.productId);
      if (!terms) fail("81001", "card product not found");
      const units = toMinorUnits(p.amount, terms.scale);
      checkLimits(terms, units);
      const live = (state.cardsOfHolder.get(holder.cardholderId) ?? []).filter(
        (c) => c.status !== "TERMINATED",
      );
      if (live.length >= terms.product.maxCardsPerCardholder) {
        fail("80011", "cardholder card count limit reached");
      }
      const card = newCard(runtime.ids, holder, terms, call.now);
      checkFunds(ctx, card, "CREATE", units);
      state.addCard(card);
      startOperation(ctx, {
        card,
        type: "CREATE",
        clientRequestId: p.clientRequestId,
        amount: p.amount,
        at: call.now,
      });
      return { cardId: card.cardId };
    }),
    handle(cardDeposit, (p, call) => {
      const card = callerCard(ctx, p.cardId);
      notTerminated(card);
      const units = toMinorUnits(p.amount, card.terms.scale);
      checkLimits(card.terms, units);
      checkFunds(ctx, card, "DEPOSIT", units);
      const record = startOperation(ctx, {
        card,
        type: "DEPOSIT",
        clientRequestId: p.clientRequestId,
        amount: p.amount,
        at: call.now,
      });
      return { operateRecordId: record.operateRecordId };
    }),
    handle(cardOperate, (p, call) => {
      const card = callerCard(ctx, p.cardId);
      notTerminated(card);
      if (p.type === "FREEZE" && card.status === "FROZEN") fail("40000", "card is already frozen");
      if (p.type === "UNFREEZE" && card.status === "ACTIVE") fail("40000", "card is not frozen");
      const record = startOperation(ctx, {
        card,
        type: p.type,
        clientRequestId: p.clientRequestId,
        at: call.now,
      });
      return { operateRecordId: record.operateRecordId };
    }),
    handle(cardReturnCardBalance, (p, call) => {
      const card = callerCard(ctx, p.cardId);
      notTerminated(card);
      const record = startOperation(ctx, {
        card,
        type: "RETURN",
        clientRequestId: p.clientRequestId,
        amount: p.amount,
        at: call.now,
      });
      return { operateRecordId: record.operateRecordId };
    }),
  ];
}

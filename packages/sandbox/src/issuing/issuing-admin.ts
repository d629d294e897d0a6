/**
 * Admin routes of the issuing area, under /__sandbox/issuing (see ADMIN.md): seed cardholders
 * and funded cards directly, list products, FX rates and cards, force an operation's outcome,
 * record 3DS deliveries, generate a large data set; transactions are in txn-admin.ts.
 */
import { fromMinorUnits, toMinorUnits } from "@merchantkit/core";
import type { Hono } from "hono";
import * as v from "valibot";
import { adminError, adminJson, readAdminBody } from "../admin/admin-http";
import { strict, wholeNumber } from "../admin/admin-schemas";
import { generateData } from "../generator/generate-data";
import { fail } from "../runtime/sandbox-error";
import { decimalText, epochMs, guarded, text } from "./admin-support";
import { USD_VALUE } from "./fx-rates";
import { cardApp, cardholderApp, operateRecordApp, threeDsApp } from "./issuing-app-form";
import type { IssuingContext } from "./issuing-context";
import type { Cardholder } from "./issuing-records";
import { txnOrderNoOf } from "./issuing-records";
import { currencyScale } from "./money-units";
import { newCard } from "./new-card";
import { finishOperation, startOperation } from "./operation-lifecycle";
import { mountTxnAdmin } from "./txn-admin";

const cardholderBody = strict({
  firstName: v.optional(text),
  lastName: v.optional(text),
  email: v.optional(text),
  nationality: v.optional(text),
});

const cardBody = strict({
  cardholderId: v.optional(text),
  productId: v.optional(text),
  currency: v.optional(text),
  balance: v.optional(decimalText),
  clientRequestId: v.optional(text),
});

const threeDsBody = strict({
  cardId: text,
  txnOrderNo: v.optional(text),
  amount: v.optional(decimalText),
  currency: v.optional(text),
  merchantName: v.optional(text),
  sendTarget: v.optional(text),
  card3dsValues: v.optional(text),
  at: v.optional(epochMs),
});

const generateBody = strict({
  seed: wholeNumber(0),
  cards: wholeNumber(1, 1_000_000),
  cardTransactions: wholeNumber(0, 5_000_000),
  days: wholeNumber(1, 365),
  startAt: v.optional(epochMs),
  currencies: v.optional(v.array(text)),
});

export function issuingAdmin(ctx: IssuingContext) {
  const { state, runtime } = ctx;
  const now = () => runtime.clock.now();
  let seeded = 0;

  const newCardholder = (b: v.InferOutput<typeof cardholderBody>): Cardholder => {
    const n = ++seeded;
    const holder: Cardholder = {
      cardholderId: runtime.ids.next(),
      merchantNo: runtime.config.merchantNo,
      firstName: b.firstName ?? "Test",
      lastName: b.lastName ?? `Holder${n}`,
      email: b.email ?? `holder-${state.cardholders.size + 1}-${n}@sandbox.example`,
      nationality: b.nationality,
    };
    if (state.emails.has(state.emailKey(holder.merchantNo, holder.email))) {
      fail("80002", "cardholder e-mail already exists");
    }
    state.addCardholder(holder);
    return holder;
  };

  return (app: Hono): void => {
    app.get("/products", () =>
      adminJson({ products: [...state.products.values()].map((t) => t.product) }),
    );
    app.get("/fx-rates", () => adminJson({ usdValue: USD_VALUE }));

    app.post(
      "/cardholders",
      guarded(ctx, async (c) => {
        const body = await readAdminBody(c, cardholderBody);
        if ("response" in body) return body.response;
        return adminJson({ cardholder: cardholderApp(newCardholder(body.value)) });
      }),
    );

    // A card funded at once: its CREATE operation is recorded and settled (S) immediately,
    // with the merchant account postings of a normal creation.
    app.post(
      "/cards",
      guarded(ctx, async (c) => {
        const body = await readAdminBody(c, cardBody);
        if ("response" in body) return body.response;
        const b = body.value;
        const terms = b.productId
          ? state.products.get(b.productId)
          : [...state.products.values()].find((t) => t.product.currency === (b.currency ?? "USD"));
        if (!terms) return adminError("no such product (GET /__sandbox/issuing/products)", 404);
        const holder = b.cardholderId ? state.cardholders.get(b.cardholderId) : newCardholder({});
        if (!holder) return adminError("cardholder not found", 404);
        const at = now();
        const card = newCard(runtime.ids, holder, terms, at);
        state.addCard(card);
        const amount = fromMinorUnits(
          toMinorUnits(b.balance ?? "1000.00", terms.scale),
          terms.scale,
        );
        const record = startOperation(ctx, {
          card,
          type: "CREATE",
          clientRequestId: b.clientRequestId ?? `admin-card-${card.cardId}`,
          amount,
          at,
        });
        finishOperation(ctx, record, "auto", at);
        return adminJson({
          card: cardApp(card),
          cardholder: cardholderApp(holder),
          operateRecordId: record.operateRecordId,
        });
      }),
    );

    app.get("/cards", () => adminJson({ cards: [...state.cards.values()].map(cardApp) }));
    app.get("/cards/:cardId", (c) => {
      const card = state.cards.get(c.req.param("cardId"));
      return card ? adminJson({ card: cardApp(card) }) : adminError("card not found", 404);
    });

    for (const action of ["settle", "fail"] as const) {
      app.post(
        `/operations/:operateRecordId/${action}`,
        guarded(ctx, (c) => {
          const record = state.operationsById.get(c.req.param("operateRecordId") ?? "");
          if (!record) return adminError("operate record not found", 404);
          if (!finishOperation(ctx, record, action === "settle" ? "auto" : "F", now())) {
            return adminError(`operate record is already final (${record.status})`, 409);
          }
          return adminJson({ operation: operateRecordApp(record) });
        }),
      );
    }

    app.post(
      "/3ds",
      guarded(ctx, async (c) => {
        const body = await readAdminBody(c, threeDsBody);
        if ("response" in body) return body.response;
        const b = body.value;
        const card = state.cards.get(b.cardId);
        if (!card) return adminError("card not found", 404);
        const currency = b.currency ?? card.currency;
        const scale = currencyScale(currency);
        const seq = state.nextThreeDsSeq();
        const record = {
          seq,
          txnOrderNo: b.txnOrderNo ?? txnOrderNoOf(state.nextTxnSeq),
          merchantNo: card.merchantNo,
          card,
          type: "OTP",
          sendMethod: "WEBHOOK",
          sendTarget:
            b.sendTarget ?? runtime.config.webhookUrls.issuing ?? "https://merchant.example/3ds",
          sendStatus: "S",
          sendTime: b.at ?? now(),
          card3dsValues:
            b.card3dsValues ?? String(100_000 + Math.floor(runtime.random() * 900_000)),
          currency,
          amount: fromMinorUnits(toMinorUnits(b.amount ?? "0", scale), scale),
          merchantName: b.merchantName ?? "SANDBOX MERCHANT",
        };
        state.addThreeDs(record);
        return adminJson({ delivery: threeDsApp(record) });
      }),
    );

    app.post(
      "/generate",
      guarded(ctx, async (c) => {
        const body = await readAdminBody(c, generateBody);
        if ("response" in body) return body.response;
        return adminJson({ generated: generateData(runtime, state, body.value) });
      }),
    );

    mountTxnAdmin(app, ctx);
  };
}

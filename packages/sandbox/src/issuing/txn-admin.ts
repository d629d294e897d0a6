/**
 * Admin routes that play the card network (mounted under /__sandbox/issuing, see ADMIN.md):
 * authorize or verify on a card, then clear, reverse, refund, settle or fail a transaction.
 * Merchants cannot create card transactions through the API; tests drive them from here.
 */
import type { Hono } from "hono";
import * as v from "valibot";
import { adminError, adminJson, readAdminBody } from "../admin/admin-http";
import { strict } from "../admin/admin-schemas";
import { decimalText, epochMs, guarded, text } from "./admin-support";
import { isKnownCurrency } from "./fx-rates";
import { cardTxnApp } from "./issuing-app-form";
import type { IssuingContext } from "./issuing-context";
import type { MerchantInfo } from "./issuing-records";
import { MERCHANTS } from "./merchants";
import { authorize, clear, failTxn, refund, reverse, settleTxn, verify } from "./txn-lifecycle";

const merchantFields = strict({
  merchantId: v.optional(text),
  merchantName: v.optional(text),
  merchantCountry: v.optional(text),
  merchantCountryCode: v.optional(text),
  merchantStateProvince: v.optional(text),
  merchantCity: v.optional(text),
  merchantPostalCode: v.optional(text),
  merchantMccCode: v.optional(text),
});

const currency = v.pipe(
  v.string("must be a currency code"),
  v.check(isKnownCurrency, "must be a currency of the FX table (GET /__sandbox/issuing/fx-rates)"),
);

const authorizeBody = strict({
  cardId: text,
  type: v.optional(v.picklist(["AUTHORIZATION", "VERIFICATION"])),
  amount: v.optional(decimalText),
  currency: v.optional(currency),
  /** Index into the built-in acceptors (GET /__sandbox/issuing/merchants). */
  merchantIndex: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  merchant: v.optional(merchantFields),
  decline: v.optional(text),
  at: v.optional(epochMs),
});

const amountBody = strict({ amount: v.optional(decimalText), at: v.optional(epochMs) });
const clearBody = strict({
  amount: v.optional(decimalText),
  at: v.optional(epochMs),
  /** false: a partial clearing; the authorization stays P and keeps the rest of its hold. */
  final: v.optional(v.boolean()),
});
const finishBody = strict({ at: v.optional(epochMs), reason: v.optional(text) });

export function mountTxnAdmin(app: Hono, ctx: IssuingContext): void {
  const { state, runtime } = ctx;
  const now = () => runtime.clock.now();

  app.get("/merchants", () => adminJson({ merchants: MERCHANTS }));

  app.post(
    "/transactions",
    guarded(ctx, async (c) => {
      const body = await readAdminBody(c, authorizeBody);
      if ("response" in body) return body.response;
      const b = body.value;
      const card = state.cards.get(b.cardId);
      if (!card) return adminError("card not found", 404);
      const base = MERCHANTS[b.merchantIndex ?? 0];
      if (!base) return adminError(`merchantIndex must be below ${MERCHANTS.length}`, 400);
      const merchant: MerchantInfo = { ...base, ...b.merchant };
      const at = b.at ?? now();
      const txnCurrency = b.currency ?? card.currency;
      if (b.type === "VERIFICATION") {
        const txn = verify(ctx, {
          card,
          currency: txnCurrency,
          merchant,
          at,
          ...(b.decline ? { decline: b.decline } : {}),
        });
        return adminJson({ transaction: cardTxnApp(txn) });
      }
      if (b.amount === undefined) return adminError("amount is required for an authorization");
      const txn = authorize(ctx, {
        card,
        amount: b.amount,
        currency: txnCurrency,
        merchant,
        at,
        decline: b.decline,
      });
      return adminJson({ transaction: cardTxnApp(txn) });
    }),
  );

  app.get("/transactions/:txnOrderNo", (c) => {
    const txn = state.findTransaction(c.req.param("txnOrderNo") ?? "");
    if (!txn) return adminError("transaction not found", 404);
    return adminJson({ transaction: cardTxnApp(txn) });
  });

  const route = <S extends v.GenericSchema>(
    action: string,
    schema: S,
    run: (
      txn: NonNullable<ReturnType<typeof state.findTransaction>>,
      body: v.InferOutput<S>,
    ) => unknown,
  ) =>
    app.post(
      `/transactions/:txnOrderNo/${action}`,
      guarded(ctx, async (c) => {
        const txn = state.findTransaction(c.req.param("txnOrderNo") ?? "");
        if (!txn) return adminError("transaction not found", 404);
        const body = await readAdminBody(c, schema);
        if ("response" in body) return body.response;
        const created = run(txn, body.value);
        return adminJson({
          transaction: cardTxnApp(txn),
          ...(created ? { created: cardTxnApp(created as typeof txn) } : {}),
        });
      }),
    );

  route("clear", clearBody, (auth, b) => {
    const at = b.at ?? now();
    if (at < auth.authTime) throw new RangeError("a clearing cannot be before its authorization");
    return clear(ctx, auth, { amount: b.amount, at, final: b.final });
  });
  route("reverse", amountBody, (auth, b) =>
    reverse(ctx, auth, { amount: b.amount, at: b.at ?? now() }),
  );
  route("refund", amountBody, (clearing, b) =>
    refund(ctx, clearing, { amount: b.amount, at: b.at ?? now() }),
  );
  route("settle", finishBody, (txn, b) => {
    settleTxn(ctx, txn, b.at ?? now());
    return undefined;
  });
  route("fail", finishBody, (txn, b) => {
    failTxn(ctx, txn, b.at ?? now(), b.reason);
    return undefined;
  });
}

/**
 * Admin routes of the profit-share area, mounted under /__sandbox/profitShare (see ADMIN.md).
 * Payments are created by the wider platform, not by this API, so admin registers completed
 * payments here; shares then name them by gatewayReference.
 */
import { checkDecimal, isJsonNumber } from "@merchantkit/core";
import type { Hono } from "hono";
import * as v from "valibot";
import { adminError, adminJson, readAdminBody } from "../admin/admin-http";
import type { Runtime } from "../runtime/area";
import type { ProfitPayment, ProfitShareState } from "./profit-share-state";

/** A JSON number (lossless) or a string, read as its text: ids and amounts may come either way. */
const numberText = v.pipe(
  v.union([v.string(), v.number(), v.custom<{ text: string }>(isJsonNumber)], "must be a string"),
  v.transform((value) => (typeof value === "object" ? value.text : String(value))),
);

export const paymentBody = v.object({
  gatewayReference: v.optional(
    v.pipe(numberText, v.regex(/^\d{1,19}$/, "must be digits (a 64-bit transactionId)")),
  ),
  merchantNo: v.optional(v.pipe(v.string(), v.minLength(1, "must not be empty"))),
  amount: v.pipe(
    numberText,
    v.check(
      (s) => checkDecimal(s, { maxScale: 2, sign: "positive" }) === undefined,
      "must be a decimal > 0 with at most 2 decimals",
    ),
  ),
  currency: v.pipe(v.string(), v.regex(/^[A-Z]{3}$/, "must be a three-letter ISO 4217 code")),
  profitShare: v.boolean("must be a boolean"),
  profitShareNotifyUrl: v.optional(
    v.pipe(v.string(), v.regex(/^https?:\/\/\S+$/, "must be an http(s) URL")),
  ),
});

export function profitShareAdmin(runtime: Runtime, state: ProfitShareState) {
  return (app: Hono): void => {
    app.post("/payments", async (c) => {
      const body = await readAdminBody(c, paymentBody);
      if ("response" in body) return body.response;
      const b = body.value;
      const payment: ProfitPayment = {
        gatewayReference: b.gatewayReference ?? runtime.ids.next(),
        merchantNo: b.merchantNo ?? runtime.config.merchantNo,
        amount: b.amount,
        currency: b.currency,
        profitShare: b.profitShare,
        profitShareNotifyUrl: b.profitShareNotifyUrl,
        completed: false,
        createdAt: runtime.clock.now(),
      };
      if (state.payments.has(payment.gatewayReference)) {
        return adminError(`payment ${payment.gatewayReference} already exists`, 409);
      }
      state.payments.set(payment.gatewayReference, payment);
      return adminJson({ payment }, 201);
    });
    app.get("/payments", () => adminJson({ payments: [...state.payments.values()] }));
    app.get("/payments/:gatewayReference", (c) => {
      const payment = state.payments.get(c.req.param("gatewayReference"));
      return payment ? adminJson({ payment }) : adminError("payment not found", 404);
    });
  };
}

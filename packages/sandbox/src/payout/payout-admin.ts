/**
 * Admin routes of the payout area, mounted under /__sandbox/payout (see ADMIN.md): force a
 * beneficiary's review outcome, force a payout's outcome, list the routes and their templates,
 * show the FX rates and fees, and download a voucher. Answers and errors use the admin API's
 * common form (admin/admin-http.ts): lossless JSON, { error } with a 4xx status.
 */
import type { Hono } from "hono";
import * as v from "valibot";
import { adminError, adminJson, readAdminBody } from "../admin/admin-http";
import type { AnyHandler } from "../runtime/area";
import { forceReview } from "./beneficiary-review";
import { generatePayouts } from "./generate-payouts";
import { paymentRoutes } from "./payment-routes";
import type { PayoutContext } from "./payout-context";
import { settle } from "./payout-lifecycle";
import { AMOUNT_SCALE, feeRules, RATE_SCALE, swiftOurFeeRule, unitsPerUsd } from "./payout-pricing";
import { voucherPdf } from "./voucher";

const text = v.pipe(v.string(), v.minLength(1, "must not be empty"));

const reviewBody = v.object({
  outcome: v.picklist(["PASS", "REJECT"], 'must be "PASS" or "REJECT"'),
  reason: v.optional(text),
});

const count = (max: number) => v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(max));

const generateBody = v.object({
  seed: v.pipe(v.number(), v.integer()),
  payouts: count(1_000_000),
  days: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(3650)),
  startAt: v.optional(v.pipe(v.number(), v.integer())),
});

const settleBody = v.object({
  outcome: v.picklist(["S", "F"], 'must be "S" or "F"'),
  errorCode: v.optional(text),
  errorMsg: v.optional(text),
});

export function payoutAdmin(ctx: PayoutContext, handlers: ReadonlyMap<string, AnyHandler>) {
  return (app: Hono): void => {
    app.post("/generate", async (c) => {
      const body = await readAdminBody(c, generateBody);
      if ("response" in body) return body.response;
      return adminJson({ generated: generatePayouts(ctx.runtime, handlers, body.value) });
    });

    app.post("/beneficiaries/:id/review", async (c) => {
      const entry = ctx.state.beneficiaries.get(c.req.param("id"));
      if (!entry) return adminError("beneficiary not found", 404);
      const body = await readAdminBody(c, reviewBody);
      if ("response" in body) return body.response;
      const { outcome, reason } = body.value;
      forceReview(
        entry,
        outcome === "PASS"
          ? { status: "PASS" }
          : { status: "REJECT", reason: reason ?? "rejected by the sandbox admin" },
        ctx.runtime.clock.now(),
      );
      return adminJson({ beneficiary: { ...entry.record } });
    });

    app.post("/payouts/:id/settle", async (c) => {
      const entry = ctx.state.payouts.get(c.req.param("id"));
      if (!entry) return adminError("payout not found", 404);
      const body = await readAdminBody(c, settleBody);
      if ("response" in body) return body.response;
      const { outcome, errorCode, errorMsg } = body.value;
      const done = settle(
        ctx,
        entry,
        outcome === "S"
          ? { status: "S" }
          : {
              status: "F",
              errorCode: errorCode ?? "PAYOUT_REJECTED",
              errorMsg: errorMsg ?? "failed by the sandbox admin",
            },
        ctx.runtime.clock.now(),
      );
      if (!done) return adminError(`payout is already final (${entry.record.payoutStatus})`, 409);
      return adminJson({ payout: { ...entry.record } });
    });

    app.get("/templates", () => adminJson({ routes: paymentRoutes }));

    app.get("/pricing", () =>
      adminJson({
        unitsPerUsd,
        feeRules,
        swiftOurFeeRule,
        rateScale: RATE_SCALE,
        amountScale: AMOUNT_SCALE,
      }),
    );

    app.get("/vouchers/:file", (c) => {
      const match = /^voucher-(\d+)\.pdf$/.exec(c.req.param("file"));
      const entry = match ? ctx.state.payouts.get(match[1] as string) : undefined;
      if (entry?.record.payoutStatus !== "S") return adminError("no voucher for this payout", 404);
      return c.body(new Uint8Array(voucherPdf(entry.record)), 200, {
        "content-type": "application/pdf",
      });
    });
  };
}

/**
 * Admin routes of the account area, under /__sandbox/account (see ADMIN.md): create a Global
 * Account, list them, and post a credit or debit straight onto the merchant account (a top-up
 * or a charge the tests need), read the balances.
 */
import { checkDecimal } from "@merchantkit/core";
import type { Hono } from "hono";
import * as v from "valibot";
import { adminJson, readAdminBody } from "../admin/admin-http";
import { strict, wholeNumber } from "../admin/admin-schemas";
import type { Runtime } from "../runtime/area";
import type { GlobalAccounts } from "./global-accounts";

const text = v.pipe(v.string("must be a string"), v.minLength(1, "must not be empty"));

const accountBody = strict({
  merchantNo: v.optional(text),
  currency: v.optional(v.pipe(text, v.regex(/^[A-Z]{3}$/, "must be three capital letters"))),
  globalAccountName: v.optional(text),
  customerName: v.optional(text),
  status: v.optional(text),
});

const postingBody = strict({
  direction: v.picklist(["credit", "debit"], 'must be "credit" or "debit"'),
  currency: v.pipe(text, v.regex(/^[A-Z]{3}$/, "must be three capital letters")),
  amount: v.pipe(
    v.string('must be a decimal string such as "100.00"'),
    v.check((s) => checkDecimal(s, { sign: "positive" }) === undefined, "must be a decimal > 0"),
  ),
  businessType: v.optional(text),
  /** Digits (a 64-bit id), so the account query can find it; a new id by default. */
  serviceId: v.optional(v.pipe(text, v.regex(/^\d+$/, "must be digits"))),
  externalOrderId: v.optional(text),
  remark: v.optional(text),
  at: v.optional(wholeNumber(0)),
});

export function accountAdmin(runtime: Runtime, accounts: GlobalAccounts) {
  return (app: Hono): void => {
    app.get("/global-accounts", () =>
      adminJson({
        globalAccounts: accounts.all().map((a) => ({ merchantNo: a.merchantNo, ...a.record })),
      }),
    );

    app.post("/global-accounts", async (c) => {
      const body = await readAdminBody(c, accountBody);
      if ("response" in body) return body.response;
      const b = body.value;
      const held = accounts.create({
        merchantNo: b.merchantNo ?? runtime.config.merchantNo,
        currency: b.currency ?? "USD",
        globalAccountName: b.globalAccountName,
        customerName: b.customerName,
        status: b.status,
      });
      return adminJson({ globalAccount: { merchantNo: held.merchantNo, ...held.record } });
    });

    app.get("/balances", () => adminJson({ balances: runtime.ledger.balances() }));

    app.post("/postings", async (c) => {
      const body = await readAdminBody(c, postingBody);
      if ("response" in body) return body.response;
      const b = body.value;
      const posting = {
        serviceId: b.serviceId ?? runtime.ids.next(),
        currency: b.currency,
        amount: b.amount,
        businessType: b.businessType ?? (b.direction === "credit" ? "TOP_UP" : "ADJUSTMENT"),
        ...(b.externalOrderId ? { externalOrderId: b.externalOrderId } : {}),
        ...(b.remark ? { remark: b.remark } : {}),
        at: b.at ?? runtime.clock.now(),
      };
      const transaction =
        b.direction === "credit" ? runtime.ledger.credit(posting) : runtime.ledger.debit(posting);
      return adminJson({ transaction, balance: runtime.ledger.balance(b.currency) });
    });
  };
}

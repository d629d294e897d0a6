/**
 * Admin routes of the account area, under /__sandbox/account (see ADMIN.md): create a Global
 * Account, list them, post a credit or debit straight onto the merchant's or a sub-merchant's
 * account (a top-up or a charge the tests need), read the balances, and generate sub-merchant
 * movements.
 */
import { checkDecimal } from "@merchantkit/core";
import type { Hono } from "hono";
import * as v from "valibot";
import { adminError, adminJson, readAdminBody } from "../admin/admin-http";
import { strict, wholeNumber } from "../admin/admin-schemas";
import { generateSubMerchantMovements } from "../generator/sub-merchant-movements";
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
  /** The account to post on: the configured merchant's (default) or a configured child's. */
  merchantNo: v.optional(text),
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

const generateBody = strict({
  seed: wholeNumber(0),
  movements: wholeNumber(0, 1_000_000),
  days: wholeNumber(1, 365),
  startAt: v.optional(wholeNumber(0)),
  subMerchants: v.optional(v.array(text, "must be an array of merchant numbers")),
});

const NOT_AN_ACCOUNT = "must be the configured merchant or one of its children";

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

    app.get("/balances", (c) => {
      const merchantNo = c.req.query("merchantNo") ?? runtime.config.merchantNo;
      const ledger = runtime.ledgers.of(merchantNo);
      if (!ledger) return adminError(`merchantNo: ${NOT_AN_ACCOUNT}`, 400);
      return adminJson({ balances: ledger.balances() });
    });

    app.post("/postings", async (c) => {
      const body = await readAdminBody(c, postingBody);
      if ("response" in body) return body.response;
      const b = body.value;
      const ledger = runtime.ledgers.of(b.merchantNo ?? runtime.config.merchantNo);
      if (!ledger) {
        return adminError(`invalid body: merchantNo: ${NOT_AN_ACCOUNT}`, 400, [
          { field: "merchantNo", message: NOT_AN_ACCOUNT },
        ]);
      }
      const posting = {
        serviceId: b.serviceId ?? runtime.ids.next(),
        currency: b.currency,
        amount: b.amount,
        businessType: b.businessType ?? (b.direction === "credit" ? "TOP_UP" : "ADJUSTMENT"),
        ...(b.externalOrderId ? { externalOrderId: b.externalOrderId } : {}),
        ...(b.remark ? { remark: b.remark } : {}),
        at: b.at ?? runtime.clock.now(),
      };
      const transaction = b.direction === "credit" ? ledger.credit(posting) : ledger.debit(posting);
      return adminJson({ transaction, balance: ledger.balance(b.currency) });
    });

    app.post("/generate", async (c) => {
      const body = await readAdminBody(c, generateBody);
      if ("response" in body) return body.response;
      runtime.scheduler.runDue(runtime.clock.now());
      try {
        return adminJson({
          generated: generateSubMerchantMovements(runtime, accounts, body.value),
        });
      } catch (error) {
        if (error instanceof RangeError) return adminError(error.message, 400);
        throw error;
      }
    });
  };
}

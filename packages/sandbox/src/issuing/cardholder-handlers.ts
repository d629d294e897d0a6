/**
 * cardholder/createCardholder and cardholder/updateCardholder. A cardholder belongs to the
 * merchant of the call; its e-mail is unique per merchant, compared without case (80002).
 */
import { cardholderCreateCardholder, cardholderUpdateCardholder } from "@merchantkit/contract";
import { type AnyHandler, type CallContext, handle } from "../runtime/area";
import { fail } from "../runtime/sandbox-error";
import { cardholderApp } from "./issuing-app-form";
import type { IssuingContext } from "./issuing-context";
import type { Cardholder } from "./issuing-records";

/**
 * The body's merchantNo must be the ApiKey's merchant, the configured one (80003 otherwise):
 * the server hands the body's value through as call.merchantNo for the area to judge.
 */
function checkMerchant(ctx: IssuingContext, call: CallContext): void {
  if (call.merchantNo !== ctx.runtime.config.merchantNo) {
    fail("80003", "merchantNo does not match the merchant of the ApiKey");
  }
}

function checkEmailFree(ctx: IssuingContext, merchantNo: string, email: string, self?: string) {
  const owner = ctx.state.emails.get(ctx.state.emailKey(merchantNo, email));
  if (owner !== undefined && owner !== self) fail("80002", "cardholder e-mail already exists");
}

const OPTIONAL_FIELDS = [
  "mobile",
  "mobileAreaCode",
  "birthDay",
  "nationality",
  "addressStateCode",
  "addressCityCode",
  "addressDetailLine1",
  "addressDetailLine2",
  "addressPostalCode",
  "remark",
] as const;

export function cardholderHandlers(ctx: IssuingContext): [string, AnyHandler][] {
  const { state, runtime } = ctx;
  return [
    handle(cardholderCreateCardholder, (p, call) => {
      checkMerchant(ctx, call);
      checkEmailFree(ctx, call.merchantNo, p.email);
      const holder: Cardholder = {
        cardholderId: runtime.ids.next(),
        merchantNo: call.merchantNo,
        firstName: p.firstName,
        lastName: p.lastName,
        email: p.email,
        addressRegionCode: p.addressRegionCode,
      };
      for (const key of OPTIONAL_FIELDS) holder[key] = p[key];
      state.addCardholder(holder);
      return cardholderApp(holder);
    }),
    handle(cardholderUpdateCardholder, (p, call) => {
      checkMerchant(ctx, call);
      const holder = state.cardholders.get(p.cardholderId);
      if (!holder || holder.merchantNo !== call.merchantNo) fail("80001", "cardholder not found");
      if (p.email !== undefined && p.email.toLowerCase() !== holder.email.toLowerCase()) {
        checkEmailFree(ctx, call.merchantNo, p.email, holder.cardholderId);
        state.emails.delete(state.emailKey(holder.merchantNo, holder.email));
        state.emails.set(state.emailKey(holder.merchantNo, p.email), holder.cardholderId);
      }
      // Only the fields sent change.
      if (p.firstName !== undefined) holder.firstName = p.firstName;
      if (p.lastName !== undefined) holder.lastName = p.lastName;
      if (p.email !== undefined) holder.email = p.email;
      if (p.addressCountryCode !== undefined) holder.addressRegionCode = p.addressCountryCode;
      for (const key of OPTIONAL_FIELDS) {
        const value = p[key];
        if (value !== undefined) holder[key] = value;
      }
      return cardholderApp(holder);
    }),
  ];
}

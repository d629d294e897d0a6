/** POST {payout_url}/api/v1/acct/queryPaymentMethods — payout methods open for a destination. */
import * as v from "valibot";
import * as c from "../codec";
import { type Codec, codec } from "../codec/codec";
import { contractEndpoint } from "../endpoint";
import { classifyPayoutCode } from "./codes";
import { payoutEntityType, payoutPaymentMethod } from "./enums";
import { country, currency, merchantNo } from "./fields";

const methodsObject = c.object({ paymentMethods: c.array(payoutPaymentMethod) });

type PaymentMethods = { paymentMethods: string[] };

/**
 * `data` = { paymentMethods: [...] } (our reading of "→ paymentMethods[]"); a bare array is
 * accepted when reading, in case `data` is the list itself.
 */
export const paymentMethodsResult: Codec<PaymentMethods, PaymentMethods> = codec(
  v.union([
    methodsObject.decode,
    v.pipe(
      c.array(payoutPaymentMethod).decode,
      v.transform((paymentMethods: string[]) => ({ paymentMethods })),
    ),
  ]) as v.GenericSchema<unknown, PaymentMethods>,
  methodsObject.encode as v.GenericSchema<PaymentMethods, PaymentMethods>,
  methodsObject.wire,
);

export const acctQueryPaymentMethods = contractEndpoint({
  name: "payout.acct.queryPaymentMethods",
  summary: "Payout methods available for a destination country, account currency and entity type",
  area: "payout",
  path: "/api/v1/acct/queryPaymentMethods",
  auth: "sign",
  kind: "read",
  merchantNo: true,
  request: c.object({
    merchantNo,
    destinationCountry: country,
    accountCurrency: currency,
    entityType: payoutEntityType,
  }),
  response: paymentMethodsResult,
  codes: classifyPayoutCode,
});

/** POST {payout_url}/api/v1/acct/queryPaymentFeild — which beneficiary fields a payout route needs. */
import * as c from "../codec";
import { contractEndpoint } from "../endpoint";
import { classifyPayoutCode } from "./codes";
import { fieldRequirement, payoutEntityType, payoutPaymentMethod } from "./enums";
import { country, currency, merchantNo, text } from "./fields";
import { objectOrJsonText, stringRecord } from "./local-codecs";

/** Field name → Y (required), C (conditional) or N (optional). */
export const fieldTemplate = stringRecord(fieldRequirement);

export const acctQueryPaymentFeild = contractEndpoint({
  name: "payout.acct.queryPaymentFeild",
  summary:
    "Template of the beneficiary fields (Y/C/N per key of receiverInfo, address, accountInfomation) for a country, currency, method and entity type",
  area: "payout",
  path: "/api/v1/acct/queryPaymentFeild",
  auth: "sign",
  kind: "read",
  merchantNo: true,
  request: c.object({
    merchantNo,
    payoutCurrency: currency,
    bankCountry: country,
    entityType: payoutEntityType,
    paymentMethod: payoutPaymentMethod,
    /** Only for wallet methods (E_WALLET, DIGITAL_WALLET). */
    walletType: c.optional(text),
  }),
  // Plain objects on the wire (provider-notes §2); JSON text of them is accepted when reading.
  response: c.object({
    merchantNo: c.optional(c.string()),
    receiverInfo: objectOrJsonText(fieldTemplate, "receiverInfo field template"),
    address: objectOrJsonText(fieldTemplate, "address field template"),
    accountInfomation: objectOrJsonText(fieldTemplate, "accountInfomation field template"),
  }),
  codes: classifyPayoutCode,
});

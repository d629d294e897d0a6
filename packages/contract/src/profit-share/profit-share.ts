/** POST {acq_url}/profit/share — share a completed payment's proceeds (share) or reverse a share (return). */
import * as c from "../codec";
import { contractEndpoint } from "../endpoint";
import { classifyProfitShareCode } from "./codes";
import {
  PROFIT_REFERENCE_MAX_LENGTH,
  profitGatewayReferenceText,
  profitReferenceText,
  profitShareCurrency,
  profitShareMerchantNo,
  profitShareUrlCallback,
} from "./fields";
import { profitShareReceivers, profitShareResult } from "./records";

/** profitType "share": split the proceeds of the payment named by gatewayReference. */
export const profitShareShareRequest = c.object({
  profitType: c.literal("share"),
  merchantNo: profitShareMerchantNo,
  currency: profitShareCurrency,
  profitReference: profitReferenceText,
  receivers: profitShareReceivers,
  urlCallback: c.optional(profitShareUrlCallback),
  /** The payment's transactionId; it must have been created with profitShare=true. */
  gatewayReference: profitGatewayReferenceText,
  /** false while more shares are expected; once true, further shares are rejected. */
  profitCompleted: c.boolean(),
});

/** profitType "return": reverse the profit share named by the two references. */
export const profitShareReturnRequest = c.object({
  profitType: c.literal("return"),
  merchantNo: profitShareMerchantNo,
  currency: profitShareCurrency,
  profitReference: profitReferenceText,
  receivers: profitShareReceivers,
  urlCallback: c.optional(profitShareUrlCallback),
  /** Order number of the original profit share. */
  profitGatewayReference: profitGatewayReferenceText,
  /** Reference of the original profit share (service-generated for an automatic one). */
  profitParentReference: c.string({ nonEmpty: true }),
});

// Requests are strict objects when encoding, but decoding (the sandbox) keeps unknown keys, so
// the "must not be sent" rules of return are also stated as rules, checked both ways.
const isNotReturnOr = (value: Record<string, unknown>, field: string) =>
  value.profitType !== "return" || value[field] === undefined;

export const profitShare = contractEndpoint({
  name: "profitShare.profit.share",
  summary:
    "Share a completed payment's proceeds among receivers, or reverse a share; 20000 means accepted, the result comes by notification or query",
  area: "profitShare",
  path: "/profit/share",
  auth: "sign",
  kind: "write",
  idempotencyKey: { field: "profitReference", maxLength: PROFIT_REFERENCE_MAX_LENGTH },
  merchantNo: true,
  request: c.withRules(
    c.variant("profitType", [profitShareShareRequest, profitShareReturnRequest]),
    [
      {
        field: "gatewayReference",
        message: "must not be sent when profitType is return",
        test: (value) => isNotReturnOr(value, "gatewayReference"),
      },
      {
        field: "profitCompleted",
        message: "must not be sent when profitType is return",
        test: (value) => isNotReturnOr(value, "profitCompleted"),
      },
    ],
  ),
  response: profitShareResult,
  codes: classifyProfitShareCode,
});

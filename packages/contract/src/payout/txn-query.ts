/** POST {payout_url}/api/v1/txn/query — one payout by requestId or payoutId. */
import * as c from "../codec";
import { contractEndpoint } from "../endpoint";
import { classifyPayoutCode } from "./codes";
import { merchantNo, payoutId, requestId } from "./fields";
import { present } from "./local-codecs";
import { transferRecord } from "./records";

/** Names a payout by the merchant's requestId, the service's payoutId, or both (our design). */
export const payoutLookup = c.withRules(
  c.object({
    merchantNo,
    requestId: c.optional(requestId),
    payoutId: c.optional(payoutId),
  }),
  [
    {
      field: "requestId",
      message: "or payoutId is required",
      test: (r) => present(r.requestId) || present(r.payoutId),
    },
  ],
);

export const txnQuery = contractEndpoint({
  name: "payout.txn.query",
  summary: "Read one payout (status P/S/F, amounts, fee, error) by requestId or payoutId",
  area: "payout",
  path: "/api/v1/txn/query",
  auth: "sign",
  kind: "read",
  merchantNo: true,
  request: payoutLookup,
  response: transferRecord,
  codes: classifyPayoutCode,
});

/** POST {payout_url}/api/v1/txn/queryVoucher — the electronic receipt of a successful payout. */
import * as c from "../codec";
import { contractEndpoint } from "../endpoint";
import { classifyPayoutCode } from "./codes";
import { payoutId } from "./fields";
import { payoutLookup } from "./txn-query";

/**
 * The receipt (our design): a download URL or the file itself in Base64, or both; the sandbox
 * sends a URL. Everything but payoutId is optional so either form reads.
 */
export const payoutVoucher = c.object({
  payoutId,
  requestId: c.optional(c.idText()),
  voucherUrl: c.optional(c.string()),
  fileName: c.optional(c.string()),
  /** e.g. "pdf". */
  fileType: c.optional(c.string()),
  /** The file's bytes in Base64, when the service sends them inline. */
  content: c.optional(c.string()),
});

export const txnQueryVoucher = contractEndpoint({
  name: "payout.txn.queryVoucher",
  summary: "Electronic receipt of a successful payout, by requestId or payoutId",
  area: "payout",
  path: "/api/v1/txn/queryVoucher",
  auth: "sign",
  kind: "read",
  merchantNo: true,
  request: payoutLookup,
  response: payoutVoucher,
  codes: classifyPayoutCode,
});

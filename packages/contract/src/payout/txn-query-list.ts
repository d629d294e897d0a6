/** POST {payout_url}/api/v1/txn/queryList — payouts in a create-time window, filtered, paged. */
import * as c from "../codec";
import { contractEndpoint } from "../endpoint";
import { classifyPayoutCode } from "./codes";
import { payoutPaymentMethod, payoutStatus } from "./enums";
import { current, dateTime, merchantNo, payoutId, requestId, size } from "./fields";
import { payoutPageData, transferRecord } from "./records";

// Times are "YYYY-MM-DD HH:mm:ss" of the same width, so comparing the strings compares the times.
const notAfter = (start: unknown, end: unknown) =>
  typeof start !== "string" || typeof end !== "string" || start <= end;

export const txnQueryList = contractEndpoint({
  name: "payout.txn.queryList",
  summary:
    "List payouts created in a window (YYYY-MM-DD HH:mm:ss), with optional status, id, method and payout-time filters",
  area: "payout",
  path: "/api/v1/txn/queryList",
  auth: "sign",
  kind: "read",
  merchantNo: true,
  request: c.withRules(
    c.object({
      merchantNo,
      createTimeStartTime: dateTime,
      createTimeEndTime: dateTime,
      size,
      current,
      requestId: c.optional(requestId),
      payoutId: c.optional(payoutId),
      payoutStatus: c.optional(payoutStatus),
      payoutStartTime: c.optional(dateTime),
      payoutEndTime: c.optional(dateTime),
      payoutMethod: c.optional(payoutPaymentMethod),
    }),
    [
      {
        field: "createTimeEndTime",
        message: "must not be before createTimeStartTime",
        test: (r) => notAfter(r.createTimeStartTime, r.createTimeEndTime),
      },
      {
        field: "payoutEndTime",
        message: "must not be before payoutStartTime",
        test: (r) => notAfter(r.payoutStartTime, r.payoutEndTime),
      },
    ],
  ),
  response: payoutPageData(transferRecord),
  codes: classifyPayoutCode,
});

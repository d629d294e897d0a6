/** POST {base_url}/api/v1/merchant/card/query3dsNotify — page through 3DS value deliveries. */
// biome-ignore lint/correctness/noUnusedImports: so the .d.ts says JsonNumber, not import("@merchantkit/core").JsonNumber, which the bundled .d.ts loses (scripts/check-pack.ts)
import type { JsonNumber } from "@merchantkit/core";
import * as c from "../codec";
import { contractEndpoint } from "../endpoint";
import { classifyIssuingCode } from "./codes";
import { issuingTimeWindow, issuingTimeWindowRule, pageNum, pageSize } from "./fields";
import { issuingPage, threeDsNotifyRecord } from "./records";

export const cardQuery3dsNotify = contractEndpoint({
  name: "issuing.card.query3dsNotify",
  summary: "List 3DS verification values delivered for card transactions",
  area: "issuing",
  path: "/card/query3dsNotify",
  auth: "issuingApiKey",
  kind: "read",
  request: c.withRules(
    c.object({
      txnOrderNo: c.optional(c.string({ nonEmpty: true, maxLength: 64 })),
      // Limited in characters here, so this endpoint takes cardId as a JSON string (digits,
      // at most 64), unlike the other issuing endpoints that send it as a bare number.
      cardId: c.optional(c.idText({ maxLength: 64 })),
      ...issuingTimeWindow,
      pageNum,
      pageSize,
    }),
    [issuingTimeWindowRule],
  ),
  response: issuingPage(threeDsNotifyRecord),
  codes: classifyIssuingCode,
});

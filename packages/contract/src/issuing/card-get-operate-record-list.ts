/** POST {base_url}/api/v1/merchant/card/getOperateRecordList — page through card operations. */
// biome-ignore lint/correctness/noUnusedImports: so the .d.ts says JsonNumber, not import("@merchantkit/core").JsonNumber, which the bundled .d.ts loses (scripts/check-pack.ts)
import type { JsonNumber } from "@merchantkit/core";
import * as c from "../codec";
import { contractEndpoint } from "../endpoint";
import { classifyIssuingCode } from "./codes";
import { operateRecordType } from "./enums";
import {
  clientRequestId,
  issuingTimeWindow,
  issuingTimeWindowRule,
  pageNum,
  pageSize,
} from "./fields";
import { cardOperateRecord, issuingPage } from "./records";

export const cardGetOperateRecordList = contractEndpoint({
  name: "issuing.card.getOperateRecordList",
  summary:
    "List card operation records, of one card or (without cardId) of all the merchant's cards",
  area: "issuing",
  path: "/card/getOperateRecordList",
  auth: "issuingApiKey",
  kind: "read",
  request: c.withRules(
    c.object({
      cardId: c.optional(c.id()),
      clientRequestId: c.optional(clientRequestId),
      type: c.optional(operateRecordType),
      ...issuingTimeWindow,
      pageNum,
      pageSize,
    }),
    [issuingTimeWindowRule],
  ),
  response: issuingPage(cardOperateRecord),
  codes: classifyIssuingCode,
});

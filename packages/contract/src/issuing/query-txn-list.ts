/** POST {base_url}/api/v1/merchant/queryTxnList — page through card transactions. */
// biome-ignore lint/correctness/noUnusedImports: so the .d.ts says JsonNumber, not import("@merchantkit/core").JsonNumber, which the bundled .d.ts loses (scripts/check-pack.ts)
import type { JsonNumber } from "@merchantkit/core";
import * as c from "../codec";
import { contractEndpoint } from "../endpoint";
import { classifyIssuingCode } from "./codes";
import { cardTxnStatus, cardTxnType } from "./enums";
import { issuingTimeWindow, issuingTimeWindowRule, pageNum, pageSize } from "./fields";
import { cardTransactionRecord, issuingPage } from "./records";

export const queryTxnList = contractEndpoint({
  name: "issuing.queryTxnList",
  summary: "List card transactions (authorizations, reversals, clearings, refunds, verifications)",
  area: "issuing",
  path: "/queryTxnList",
  auth: "issuingApiKey",
  kind: "read",
  request: c.withRules(
    c.object({
      txnType: c.optional(cardTxnType),
      txnStatus: c.optional(cardTxnStatus),
      cardId: c.optional(c.id()),
      ...issuingTimeWindow,
      pageNum,
      pageSize,
    }),
    [issuingTimeWindowRule],
  ),
  response: issuingPage(cardTransactionRecord),
  codes: classifyIssuingCode,
});

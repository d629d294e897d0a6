/** POST {base_url}/api/v1/merchant/card/returnCardBalance — withdraw card balance to the merchant. */
// biome-ignore lint/correctness/noUnusedImports: so the .d.ts says JsonNumber, not import("@merchantkit/core").JsonNumber, which the bundled .d.ts loses (scripts/check-pack.ts)
import type { JsonNumber } from "@merchantkit/core";
import * as c from "../codec";
import { contractEndpoint } from "../endpoint";
import { classifyIssuingCode } from "./codes";
import { cardAmount, clientRequestId } from "./fields";

export const cardReturnCardBalance = contractEndpoint({
  name: "issuing.card.returnCardBalance",
  summary:
    "Return part of a card's available balance to the merchant account; the outcome arrives as an operate record",
  area: "issuing",
  path: "/card/returnCardBalance",
  auth: "issuingApiKey",
  kind: "write",
  idempotencyKey: { field: "clientRequestId", maxLength: 64 },
  request: c.object({
    clientRequestId,
    cardId: c.id(),
    amount: cardAmount,
  }),
  response: c.object({ operateRecordId: c.id() }),
  codes: classifyIssuingCode,
});

/** POST {base_url}/api/v1/merchant/card/deposit — move money from the merchant account to a card. */
// biome-ignore lint/correctness/noUnusedImports: so the .d.ts says JsonNumber, not import("@merchantkit/core").JsonNumber, which the bundled .d.ts loses (scripts/check-pack.ts)
import type { JsonNumber } from "@merchantkit/core";
import * as c from "../codec";
import { contractEndpoint } from "../endpoint";
import { classifyIssuingCode } from "./codes";
import { cardAmount, clientRequestId } from "./fields";

export const cardDeposit = contractEndpoint({
  name: "issuing.card.deposit",
  summary: "Deposit onto a card; the outcome arrives as an operate record (P → S/F)",
  area: "issuing",
  path: "/card/deposit",
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

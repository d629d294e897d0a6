/** POST {base_url}/api/v1/merchant/card/createCard — issue a card with an initial deposit. */
// biome-ignore lint/correctness/noUnusedImports: so the .d.ts says JsonNumber, not import("@merchantkit/core").JsonNumber, which the bundled .d.ts loses (scripts/check-pack.ts)
import type { JsonNumber } from "@merchantkit/core";
import * as c from "../codec";
import { contractEndpoint } from "../endpoint";
import { classifyIssuingCode } from "./codes";
import { cardAmount, clientRequestId } from "./fields";

export const cardCreateCard = contractEndpoint({
  name: "issuing.card.createCard",
  summary: "Create a card for a cardholder from a card product, funded with an initial deposit",
  area: "issuing",
  path: "/card/createCard",
  auth: "issuingApiKey",
  kind: "write",
  idempotencyKey: { field: "clientRequestId", maxLength: 64 },
  request: c.object({
    clientRequestId,
    cardholderId: c.id(),
    productId: c.id(),
    amount: cardAmount,
  }),
  response: c.object({ cardId: c.id() }),
  codes: classifyIssuingCode,
});

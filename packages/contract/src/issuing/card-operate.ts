/** POST {base_url}/api/v1/merchant/card/operate — freeze, unfreeze or terminate a card. */
// biome-ignore lint/correctness/noUnusedImports: so the .d.ts says JsonNumber, not import("@merchantkit/core").JsonNumber, which the bundled .d.ts loses (scripts/check-pack.ts)
import type { JsonNumber } from "@merchantkit/core";
import * as c from "../codec";
import { contractEndpoint } from "../endpoint";
import { classifyIssuingCode } from "./codes";
import { clientRequestId } from "./fields";

export const cardOperateType = c.closedEnum(["FREEZE", "UNFREEZE", "TERMINATE"]);

export const cardOperate = contractEndpoint({
  name: "issuing.card.operate",
  summary:
    "Freeze, unfreeze or terminate a card; the outcome arrives as an operate record (P → S/F)",
  area: "issuing",
  path: "/card/operate",
  auth: "issuingApiKey",
  kind: "write",
  idempotencyKey: { field: "clientRequestId", maxLength: 64 },
  request: c.object({
    clientRequestId,
    cardId: c.id(),
    type: cardOperateType,
  }),
  response: c.object({ operateRecordId: c.id() }),
  codes: classifyIssuingCode,
});

/** POST {base_url}/api/v1/merchant/cardholder/createCardholder — create a cardholder. */
// biome-ignore lint/correctness/noUnusedImports: so the .d.ts says JsonNumber, not import("@merchantkit/core").JsonNumber, which the bundled .d.ts loses (scripts/check-pack.ts)
import type { JsonNumber } from "@merchantkit/core";
import * as c from "../codec";
import { contractEndpoint } from "../endpoint";
import { classifyIssuingCode } from "./codes";
import {
  cardholderCountryCode,
  cardholderEmail,
  cardholderFirstName,
  cardholderLastName,
  cardholderOptionalFields,
  clientRequestId,
  issuingMerchantNo,
} from "./fields";
import { cardholder } from "./records";

export const cardholderCreateCardholder = contractEndpoint({
  name: "issuing.cardholder.createCardholder",
  summary: "Create a cardholder; an e-mail already registered is refused (80002)",
  area: "issuing",
  path: "/cardholder/createCardholder",
  auth: "issuingApiKey",
  kind: "write",
  idempotencyKey: { field: "clientRequestId", maxLength: 64 },
  merchantNo: true,
  request: c.object({
    merchantNo: issuingMerchantNo,
    clientRequestId,
    firstName: cardholderFirstName,
    lastName: cardholderLastName,
    email: cardholderEmail,
    ...cardholderOptionalFields,
    addressRegionCode: c.optional(cardholderCountryCode),
  }),
  response: cardholder,
  codes: classifyIssuingCode,
});

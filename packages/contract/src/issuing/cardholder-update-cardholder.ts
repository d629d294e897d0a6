/** POST {base_url}/api/v1/merchant/cardholder/updateCardholder — change a cardholder's details. */
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
  issuingMerchantNo,
} from "./fields";
import { cardholder } from "./records";

export const cardholderUpdateCardholder = contractEndpoint({
  name: "issuing.cardholder.updateCardholder",
  summary: "Update a cardholder; only the fields sent change",
  area: "issuing",
  path: "/cardholder/updateCardholder",
  auth: "issuingApiKey",
  // No idempotency key: sending the same values twice leaves the same cardholder.
  kind: "write",
  merchantNo: true,
  request: c.object({
    merchantNo: issuingMerchantNo,
    cardholderId: c.id(),
    firstName: c.optional(cardholderFirstName),
    lastName: c.optional(cardholderLastName),
    email: c.optional(cardholderEmail),
    ...cardholderOptionalFields,
    // The update request names the country field addressCountryCode (create: addressRegionCode).
    addressCountryCode: c.optional(cardholderCountryCode),
  }),
  response: cardholder,
  codes: classifyIssuingCode,
});

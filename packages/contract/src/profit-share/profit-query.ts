/** POST {acq_url}/profit/query — the result of a share or a reversal (request shape is our design). */
import * as c from "../codec";
import { contractEndpoint } from "../endpoint";
import { classifyProfitShareCode } from "./codes";
import { profitGatewayReferenceText, profitReferenceText, profitShareMerchantNo } from "./fields";
import { profitShareResult } from "./records";

export const profitQuery = contractEndpoint({
  name: "profitShare.profit.query",
  summary:
    "Query the result of a profit share or reversal by profitReference or profitGatewayReference",
  area: "profitShare",
  path: "/profit/query",
  auth: "sign",
  kind: "read",
  merchantNo: true,
  request: c.withRules(
    c.object({
      merchantNo: profitShareMerchantNo,
      profitReference: c.optional(profitReferenceText),
      profitGatewayReference: c.optional(profitGatewayReferenceText),
    }),
    [
      {
        field: "profitReference",
        message: "is required when profitGatewayReference is absent",
        test: (value) =>
          value.profitReference !== undefined || value.profitGatewayReference !== undefined,
      },
    ],
  ),
  response: profitShareResult,
  codes: classifyProfitShareCode,
});

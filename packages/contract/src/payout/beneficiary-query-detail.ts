/** POST {payout_url}/api/v1/beneficiary/queryDetail — one beneficiary with its review status. */
import * as c from "../codec";
import { contractEndpoint } from "../endpoint";
import { classifyPayoutCode } from "./codes";
import { beneficiaryId, merchantNo } from "./fields";
import { beneficiaryRecord } from "./records";

export const beneficiaryQueryDetail = contractEndpoint({
  name: "payout.beneficiary.queryDetail",
  summary: "Read one beneficiary, its JSON-encoded parts decoded, with payeeStatus",
  area: "payout",
  path: "/api/v1/beneficiary/queryDetail",
  auth: "sign",
  kind: "read",
  merchantNo: true,
  request: c.object({ merchantNo, beneficiaryId }),
  response: beneficiaryRecord,
  codes: classifyPayoutCode,
});

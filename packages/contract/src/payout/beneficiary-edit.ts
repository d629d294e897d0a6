/** POST {payout_url}/api/v1/beneficiary/edit — update a beneficiary in place; it may go back to review. */
import * as c from "../codec";
import { contractEndpoint } from "../endpoint";
import { classifyPayoutCode } from "./codes";
import { beneficiaryId } from "./fields";
import { beneficiaryFields, beneficiaryResult } from "./records";

export const beneficiaryEdit = contractEndpoint({
  name: "payout.beneficiary.edit",
  summary:
    "Update a beneficiary (the same fields as add) and keep its beneficiaryId; the answer carries the new payeeStatus",
  area: "payout",
  path: "/api/v1/beneficiary/edit",
  auth: "sign",
  kind: "write",
  merchantNo: true,
  request: c.extend(beneficiaryFields, { beneficiaryId }),
  response: beneficiaryResult,
  codes: classifyPayoutCode,
});

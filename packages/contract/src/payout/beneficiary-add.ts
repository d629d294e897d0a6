/** POST {payout_url}/api/v1/beneficiary/add — register a beneficiary; answers beneficiaryId and payeeStatus. */
import { contractEndpoint } from "../endpoint";
import { classifyPayoutCode } from "./codes";
import { beneficiaryFields, beneficiaryResult } from "./records";

export const beneficiaryAdd = contractEndpoint({
  name: "payout.beneficiary.add",
  summary:
    "Create a beneficiary per the queryPaymentFeild template; an existing one is an error (find it with beneficiary/queryList by cardNumber)",
  area: "payout",
  path: "/api/v1/beneficiary/add",
  auth: "sign",
  // No idempotency key: a repeat after a lost answer fails as a duplicate beneficiary.
  kind: "write",
  merchantNo: true,
  request: beneficiaryFields,
  response: beneficiaryResult,
  codes: classifyPayoutCode,
});

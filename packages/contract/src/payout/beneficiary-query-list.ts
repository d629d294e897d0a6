/** POST {payout_url}/api/v1/beneficiary/queryList — beneficiaries by status, id or card number, paged. */
import * as c from "../codec";
import { contractEndpoint } from "../endpoint";
import { classifyPayoutCode } from "./codes";
import { payeeStatus } from "./enums";
import { beneficiaryId, current, merchantNo, size, text } from "./fields";
import { beneficiaryRecord, payoutPageData } from "./records";

export const beneficiaryQueryList = contractEndpoint({
  name: "payout.beneficiary.queryList",
  summary:
    "List beneficiaries (filters payeeStatus, beneficiaryId, cardNumber); the way to find an existing one after a duplicate add",
  area: "payout",
  path: "/api/v1/beneficiary/queryList",
  auth: "sign",
  kind: "read",
  merchantNo: true,
  request: c.object({
    merchantNo,
    payeeStatus: c.optional(payeeStatus),
    beneficiaryId: c.optional(beneficiaryId),
    cardNumber: c.optional(text),
    size,
    current,
  }),
  response: payoutPageData(beneficiaryRecord),
  codes: classifyPayoutCode,
});

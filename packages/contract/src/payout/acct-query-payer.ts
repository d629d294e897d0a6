/** POST {payout_url}/api/v1/acct/queryPayer — payers, filtered and sorted, paged (size -1 = all). */
import * as c from "../codec";
import { contractEndpoint } from "../endpoint";
import { classifyPayoutCode } from "./codes";
import { payerIdType, subEntityType } from "./enums";
import { country, current, date, merchantNo, payerId, text } from "./fields";
import { pageSizeOrAll } from "./local-codecs";
import { payerRecord, payoutPageData } from "./records";

export const acctQueryPayer = contractEndpoint({
  name: "payout.acct.queryPayer",
  summary: "List payers with optional filters and sorting; size -1 asks for all records",
  area: "payout",
  path: "/api/v1/acct/queryPayer",
  auth: "sign",
  kind: "read",
  merchantNo: true,
  request: c.object({
    merchantNo,
    size: pageSizeOrAll(),
    current,
    /** Sort column name. */
    column: c.optional(text),
    asc: c.optional(c.boolean()),
    id: c.optional(payerId),
    subEntityType: c.optional(subEntityType),
    companyName: c.optional(text),
    companyNameEn: c.optional(text),
    firstName: c.optional(text),
    lastName: c.optional(text),
    country: c.optional(country),
    registerNo: c.optional(text),
    idType: c.optional(payerIdType),
    registerDate: c.optional(date),
  }),
  response: payoutPageData(payerRecord),
  codes: classifyPayoutCode,
});

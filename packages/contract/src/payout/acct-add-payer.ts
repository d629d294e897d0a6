/** POST {payout_url}/api/v1/acct/addPayer — register a payer; `data` is the new payer id. */
import * as c from "../codec";
import { contractEndpoint } from "../endpoint";
import { classifyPayoutCode } from "./codes";
import { merchantNo, payerId } from "./fields";
import { payerFields, payerRules } from "./records";

export const acctAddPayer = contractEndpoint({
  name: "payout.acct.addPayer",
  summary:
    "Create a payer (business or individual, per subEntityType); answers the payer id for txn/remittance",
  area: "payout",
  path: "/api/v1/acct/addPayer",
  auth: "sign",
  kind: "write",
  merchantNo: true,
  request: c.withRules(c.extend(payerFields, { merchantNo }), payerRules),
  // `data` is the id itself: a string per the contract, possibly a 64-bit number in practice.
  response: payerId,
  codes: classifyPayoutCode,
});

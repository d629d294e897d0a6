/** POST {payout_url}/api/v1/acct/queryAcctCurrency — the merchant's payout balance per currency. */
import * as c from "../codec";
import { contractEndpoint } from "../endpoint";
import { classifyPayoutCode } from "./codes";
import { currency, merchantNo, responseAmount } from "./fields";

/** One currency's balance (our design): decimal strings, digit for digit. */
export const payoutCurrencyBalance = c.object({
  currency: c.string(),
  /** What a remittance can spend now. */
  availableBalance: responseAmount,
  /** Held by payouts in progress. */
  frozenBalance: c.optional(responseAmount),
  /** available + frozen. */
  totalBalance: c.optional(responseAmount),
});

export const acctQueryAcctCurrency = contractEndpoint({
  name: "payout.acct.queryAcctCurrency",
  summary:
    "Balances of the payout account per currency (check before txn/remittance: the balance must suffice)",
  area: "payout",
  path: "/api/v1/acct/queryAcctCurrency",
  auth: "sign",
  kind: "read",
  merchantNo: true,
  request: c.object({
    merchantNo,
    /** Only this currency (our design); all currencies when absent. */
    currency: c.optional(currency),
  }),
  // `data` is the list itself (our design).
  response: c.array(payoutCurrencyBalance),
  codes: classifyPayoutCode,
});

/** POST {base_url}/account-server/api/v2/account/transactions/service/query — balance changes by order number. */
// biome-ignore lint/correctness/noUnusedImports: so the .d.ts says JsonNumber, not import("@merchantkit/core").JsonNumber, which the bundled .d.ts loses (scripts/check-pack.ts)
import type { JsonNumber } from "@merchantkit/core";
import * as c from "../codec";
import { contractEndpoint } from "../endpoint";
import { classifyAccountCode } from "./codes";
import { ACCOUNT_REQUEST_ID_MAX_LENGTH, accountOnBehalfOf, accountRequestId } from "./fields";
import { accountTransactionRecord } from "./records";

/** serviceIds: 1 to 100 transaction order numbers, 64-bit ids sent as bare JSON numbers. */
export const SERVICE_IDS_MAX = 100;

export const accountTransactionsServiceQuery = contractEndpoint({
  name: "account.transactions.service.query",
  summary: "Query account balance change records by transaction order number (serviceIds)",
  area: "account",
  path: "/api/v2/account/transactions/service/query",
  auth: "accountApiKey",
  kind: "read",
  // A read, but requestId is documented as idempotency control: the transport fills it.
  idempotencyKey: { field: "requestId", maxLength: ACCOUNT_REQUEST_ID_MAX_LENGTH },
  onBehalfOf: true,
  request: c.object({
    requestId: accountRequestId,
    onBehalfOf: accountOnBehalfOf,
    serviceIds: c.array(c.id(), { minItems: 1, maxItems: SERVICE_IDS_MAX }),
  }),
  response: c.object({ list: c.array(accountTransactionRecord) }),
  codes: classifyAccountCode,
});

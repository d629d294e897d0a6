/** POST {base_url}/account-server/api/v1/account/global/getDetail — read one Global Account. */
import * as c from "../codec";
import { contractEndpoint } from "../endpoint";
import { classifyAccountCode } from "./codes";
import { ACCOUNT_REQUEST_ID_MAX_LENGTH, accountOnBehalfOf, accountRequestId } from "./fields";
import { globalAccount } from "./records";

/** The numeric Global Account ID, carried as a string of digits (a 64-bit id, as the others). */
export const globalAccountIdText = c.string({
  nonEmpty: true,
  format: "int64",
  pattern: { regex: /^\d+$/, message: "must be a numeric Global Account ID (digits only)" },
});

export const accountGlobalGetDetail = contractEndpoint({
  name: "account.global.getDetail",
  summary:
    "Read a Global Account by globalAccountId or globalAccountNo; when both are sent the service checks they name the same account",
  area: "account",
  path: "/api/v1/account/global/getDetail",
  auth: "accountApiKey",
  kind: "read",
  // requestId is for tracing; letting the transport fill it gives every call one.
  idempotencyKey: { field: "requestId", maxLength: ACCOUNT_REQUEST_ID_MAX_LENGTH },
  onBehalfOf: true,
  request: c.withRules(
    c.object({
      requestId: accountRequestId,
      onBehalfOf: accountOnBehalfOf,
      globalAccountId: c.optional(globalAccountIdText),
      globalAccountNo: c.optional(c.string({ nonEmpty: true })),
    }),
    [
      {
        field: "globalAccountId",
        message: "is required when globalAccountNo is absent",
        test: (value) => value.globalAccountId !== undefined || value.globalAccountNo !== undefined,
      },
    ],
  ),
  response: globalAccount,
  codes: classifyAccountCode,
});

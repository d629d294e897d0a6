/**
 * Authentication per endpoint.auth, as the service does it. Header checks (issuing ApiKey,
 * account apikey + x-timestamp) run before the body is read; body checks (sign and merchantNo
 * for payout and profit share, onBehalfOf for the account area) after it is parsed. The result
 * is the merchant the call acts for, which goes into the handler's CallContext.
 */
import { type ContractEndpoint, isValidAccountTimestamp } from "@merchantkit/contract";
import type { SandboxConfig } from "../runtime/config";
import { verifySignSync } from "../runtime/sign-sync";
import { ACCOUNT_AUTH_CODES, ISSUING_UNAUTHORIZED, SIGN_CODES } from "./area-codes";
import type { Failure } from "./envelope";

/** A failure when the headers do not authenticate the call, else undefined. */
export function checkHeaders(
  endpoint: ContractEndpoint,
  headers: Headers,
  config: SandboxConfig,
  now: number,
): Failure | undefined {
  if (endpoint.auth === "issuingApiKey") {
    if (headers.get("apikey") !== config.issuingApiKey) {
      return { ...ISSUING_UNAUTHORIZED, httpStatus: 401 };
    }
    return undefined;
  }
  if (endpoint.auth === "accountApiKey") {
    // Header names are case-insensitive, so ApiKey and apikey are the same header.
    if (headers.get("apikey") !== config.accountApiKey) {
      return { respCode: ACCOUNT_AUTH_CODES.badApiKey, respMsg: "invalid apikey", httpStatus: 401 };
    }
    if (!timestampAccepted(headers.get("x-timestamp"), now, config.timestampSkewMs)) {
      return {
        respCode: ACCOUNT_AUTH_CODES.badTimestamp,
        respMsg: "x-timestamp missing, malformed or too far from server time",
        httpStatus: 401,
      };
    }
  }
  return undefined;
}

/**
 * The contract's form rule (exactly 10 or 13 digits) with the configured skew: the form is
 * checked by asking the contract's function whether the header is valid at its own instant.
 */
function timestampAccepted(header: string | null, now: number, skewMs: number): boolean {
  if (header === null) return false;
  const ms = header.length === 10 ? Number(header) * 1000 : Number(header);
  if (!Number.isFinite(ms) || !isValidAccountTimestamp(header, ms)) return false;
  return Math.abs(ms - now) <= skewMs;
}

export type BodyAuth = { merchantNo: string } | { failure: Failure };

/** Checks the parsed body (sign, merchantNo, onBehalfOf) and names the acting merchant. */
export function checkBody(
  endpoint: ContractEndpoint,
  body: Record<string, unknown>,
  config: SandboxConfig,
): BodyAuth {
  const known = (m: unknown): m is string =>
    typeof m === "string" && (m === config.merchantNo || config.children.includes(m));
  if (endpoint.auth === "sign") {
    const unsigned = endpoint.unsignedFields ?? [];
    if (!verifySignSync(body, config.secretKey, { unsigned })) {
      return { failure: { respCode: SIGN_CODES.badSign, respMsg: "sign verification failed" } };
    }
    const merchantNo = body.merchantNo;
    // An absent or non-string merchantNo is left to the request codec (a parameter error).
    if (typeof merchantNo === "string" && !known(merchantNo)) {
      return { failure: { respCode: SIGN_CODES.unknownMerchant, respMsg: "merchant not found" } };
    }
    return { merchantNo: typeof merchantNo === "string" ? merchantNo : config.merchantNo };
  }
  if (endpoint.auth === "accountApiKey") {
    const child = body.onBehalfOf;
    if (typeof child === "string") {
      if (!config.children.includes(child)) {
        const respCode =
          endpoint.name === "account.global.getDetail"
            ? ACCOUNT_AUTH_CODES.getDetailDenied
            : ACCOUNT_AUTH_CODES.transactionsDenied;
        return {
          failure: { respCode, respMsg: "caller is not authorized for the onBehalfOf merchant" },
        };
      }
      return { merchantNo: child };
    }
    return { merchantNo: config.merchantNo };
  }
  // Issuing: cardholder calls carry merchantNo in the body; the area judges it (80003).
  const merchantNo = body.merchantNo;
  return { merchantNo: typeof merchantNo === "string" ? merchantNo : config.merchantNo };
}

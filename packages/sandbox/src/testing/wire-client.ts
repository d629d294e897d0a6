/**
 * Builds service requests by hand for the server's tests, as a client would put them on the
 * wire: lossless JSON, `sign` for payout and profit share, ApiKey / apikey + x-timestamp.
 */
import { parseJson, stringifyJson } from "@merchantkit/core";
import { defaultConfig } from "../runtime/config";
import { signSync } from "../runtime/sign-sync";

const config = defaultConfig();

export interface WireAnswer {
  status: number;
  headers: Headers;
  text: string;
  body: Record<string, unknown>;
}

export async function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<WireAnswer> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: typeof body === "string" ? body : stringifyJson(body),
  });
  const text = await res.text();
  let parsed: Record<string, unknown> = {};
  try {
    parsed = parseJson(text) as Record<string, unknown>;
  } catch {
    // left empty: the test looks at text
  }
  return { status: res.status, headers: res.headers, text, body: parsed };
}

/** A payout / profit-share body with merchantNo and a valid sign. */
export function signed(
  body: Record<string, unknown>,
  secretKey = config.secretKey,
): Record<string, unknown> {
  const withMerchant = { merchantNo: config.merchantNo, ...body };
  return { ...withMerchant, sign: signSync(withMerchant, secretKey) };
}

export const issuingHeaders = (apiKey = config.issuingApiKey) => ({ ApiKey: apiKey });

export const accountHeaders = (opts: { apiKey?: string; timestamp?: string } = {}) => ({
  apikey: opts.apiKey ?? config.accountApiKey,
  "x-timestamp": opts.timestamp ?? String(Date.now()),
});

export const PATHS = {
  operate: "/api/v1/merchant/card/operate",
  deposit: "/api/v1/merchant/card/deposit",
  createCardholder: "/api/v1/merchant/cardholder/createCardholder",
  getDetail: "/account-server/api/v1/account/global/getDetail",
  transactions: "/account-server/api/v2/account/transactions/service/query",
  queryAcctCurrency: "/payout/api/v1/acct/queryAcctCurrency",
  profitQuery: "/profit/query",
} as const;

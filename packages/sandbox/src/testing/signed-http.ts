/**
 * For the payout and profit-share HTTP tests: requests built by hand as a client puts them on
 * the wire (lossless JSON, merchantNo, the SHA-256 `sign`), answers read with parseJson.
 */
import { parseJson, sign, stringifyJson } from "@merchantkit/core";
import { defaultConfig } from "../runtime/config";

export interface Envelope {
  respCode: string;
  respMsg: string | null;
  data?: unknown;
}

/** POSTs `fields` (wire form) signed with the default secret; answers the parsed envelope. */
export async function signedPost(
  origin: string,
  path: string,
  fields: Record<string, unknown>,
): Promise<Envelope & { status: number }> {
  const config = defaultConfig();
  const body = { merchantNo: config.merchantNo, ...fields };
  const res = await fetch(`${origin}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: stringifyJson({ ...body, sign: await sign(body, config.secretKey) }),
  });
  return { status: res.status, ...(parseJson(await res.text()) as unknown as Envelope) };
}

/** The `data` of a 20000 answer; throws with the respCode and message otherwise. */
export async function ok<T = Record<string, unknown>>(
  answer: Promise<Envelope & { status: number }>,
): Promise<T> {
  const a = await answer;
  if (a.respCode !== "20000") throw new Error(`${a.respCode}: ${a.respMsg}`);
  return a.data as T;
}

/** Admin JSON call (POST with a body, GET without). */
export async function adminCall(
  origin: string,
  method: "GET" | "POST",
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${origin}/__sandbox${path}`, {
    method,
    ...(body === undefined
      ? {}
      : { body: stringifyJson(body), headers: { "Content-Type": "application/json" } }),
  });
  return {
    status: res.status,
    body: parseJson(await res.text()) as unknown as Record<string, unknown>,
  };
}

// Wire form: the beneficiary parts travel as JSON text.
export const beneficiary = {
  merchantRefId: "user-1",
  bankCountry: "US",
  payoutCurrency: "USD",
  entityType: "1",
  paymentMethod: "LOCAL",
  receiverInfo: stringifyJson({ firstName: "Ada", lastName: "Lovelace" }),
  address: stringifyJson({
    countryCode: "US",
    state: "NY",
    city: "New York",
    addressLine1: "1 Main St",
    postalCode: "10001",
  }),
  accountInfomation: stringifyJson({
    cardNumber: "000123456789",
    accountType: "0",
    branchCode: "021000021",
    bankHolderName: "Ada Lovelace",
  }),
};

/** A payer as the wire carries it. */
export const payer = { subEntityType: "1", country: "SG", firstName: "Grace", lastName: "Hopper" };

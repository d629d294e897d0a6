/**
 * The service's answer envelopes, per area. Success is { respCode "20000", respMsg "success",
 * data } everywhere (Global Account detail adds `success: true`). Failures differ: the account
 * area carries a structured `error` object and no data, Global Account detail says
 * `success: false`, and the other areas send `data: null`.
 */
import { accountErrorObject, type ContractEndpoint } from "@merchantkit/contract";
import { stringifyJson } from "@merchantkit/core";
import * as v from "valibot";
import { INTERNAL_ERROR_CODE } from "./area-codes";

export const JSON_CONTENT_TYPE = "application/json;charset=UTF-8";
export const SUCCESS_CODE = "20000";

const GET_DETAIL = "account.global.getDetail";

/** What the server sends: status, body text and the respCode for the request log. */
export interface Outcome {
  status: number;
  text: string;
  respCode: string | undefined;
  headers?: Record<string, string>;
  /** A stored idempotent answer was sent again. */
  replayed?: boolean;
}

export interface Failure {
  respCode: string;
  respMsg: string;
  httpStatus?: number;
  /** Field-level problems (parameter errors). */
  details?: readonly { field: string; message: string }[];
  /** Account area: more of the structured error object (SandboxError.detail). */
  detail?: Record<string, unknown>;
}

/** The success envelope around `dataText`, the JSON text of the answer's data. */
export function successText(endpoint: ContractEndpoint, dataText: string): string {
  // Written out rather than stringified: the data is JSON text already, encoded in one step.
  const head = endpoint.name === GET_DETAIL ? '{"success":true,' : "{";
  return `${head}"respCode":"${SUCCESS_CODE}","respMsg":"success","data":${dataText}}`;
}

export function failureOutcome(
  endpoint: Pick<ContractEndpoint, "area" | "name">,
  f: Failure,
): Outcome {
  const status = f.httpStatus ?? 200;
  if (endpoint.area !== "account") {
    return {
      status,
      respCode: f.respCode,
      text: stringifyJson({ respCode: f.respCode, respMsg: f.respMsg, data: null }),
    };
  }
  const error = accountError(f);
  const envelope: Record<string, unknown> =
    endpoint.name === GET_DETAIL
      ? { success: false, respCode: f.respCode, respMsg: f.respMsg, error }
      : { respCode: f.respCode, respMsg: f.respMsg, error };
  return { status, respCode: f.respCode, text: stringifyJson(envelope) };
}

function accountError(f: Failure): unknown {
  const app = {
    code: f.respCode,
    message: f.respMsg,
    ...(f.details && f.details.length > 0
      ? { details: f.details.map((d) => ({ field: d.field, message: d.message })) }
      : {}),
    ...f.detail,
  };
  const encoded = v.safeParse(accountErrorObject.encode, app);
  if (encoded.success) return encoded.output;
  // A handler's detail that breaks the contract: keep the answer readable, report the bug.
  console.error("[sandbox] account error object breaks the contract:", encoded.issues);
  return { code: f.respCode, message: f.respMsg };
}

/** HTTP 500 for a sandbox bug; the reason goes to stderr, never to the client. */
export function internalError(
  endpoint: Pick<ContractEndpoint, "area" | "name">,
  why: string,
): Outcome {
  return failureOutcome(endpoint, {
    respCode: INTERNAL_ERROR_CODE,
    respMsg: `sandbox internal error: ${why}`,
    httpStatus: 500,
  });
}

export function jsonResponse(outcome: Outcome): Response {
  return new Response(outcome.text, {
    status: outcome.status,
    headers: { "Content-Type": JSON_CONTENT_TYPE, ...outcome.headers },
  });
}

/**
 * Turns one HTTP answer into either the endpoint's validated data or a typed error. Pure: no
 * I/O, no retries; the transport decides what to do with a failure.
 */
import * as v from "valibot";
import type { ApiError, ApiErrorKind } from "../errors/api-error";
import { createApiError } from "../errors/create-api-error";
import { ResponseValidationError } from "../errors/local-errors";
import { toValidationIssues } from "../errors/valibot-issues";
import { parseJson } from "../json/parse-json";
import { redact, redactText } from "../redaction/redact";
import type { Endpoint } from "./endpoint";
import { type Envelope, isSuccess, kindForHttpStatus, readEnvelope } from "./envelope";
import { parseRetryAfter } from "./retry-policy";

export interface HttpAnswer {
  status: number;
  headers: Headers;
  text: string;
}

export type Reading =
  | { ok: true; data: unknown; envelope: Envelope; requestId: string | undefined }
  | { ok: false; error: ApiError | ResponseValidationError; envelope: Envelope | undefined };

export interface ReadContext {
  endpoint: Endpoint;
  idempotencyKey: string | undefined;
  /** The tracing id the request carried (account requestId), when the response names none. */
  requestId: string | undefined;
  /**
   * The credentials the request carried (API key, signing secret), asked for only when the
   * answer is a failure: blanked wherever the answer echoes them in the error.
   */
  secrets?: (() => readonly string[]) | undefined;
}

/**
 * What an error shows of a body that is not JSON. JSON cut off on the way (it starts like JSON)
 * can hold anything the answer held (an OTP, an identity number, a sign) that redact() could not
 * find without parsing it: only its size is shown. Other text (a proxy's HTML error page) is
 * shown in part, with digit runs that could be a card number (grouped or not) masked and the
 * request's credentials blanked (before the cut, so none is left half there).
 */
function excerpt(text: string, secrets: readonly string[] | undefined): string {
  if (/^\s*[[{]/.test(text)) return `[${text.length} characters of JSON cut short, not shown]`;
  const clean = redactText(text.length > 4_096 ? text.slice(0, 4_096) : text, { secrets });
  return clean.length > 200 ? `${clean.slice(0, 200)}…` : clean;
}

function apiErrorKind(
  endpoint: Endpoint,
  status: number,
  envelope: Envelope | undefined,
): ApiErrorKind {
  const byStatus = kindForHttpStatus(status);
  // 401/403/429/5xx say more than any body could; other statuses defer to the business code.
  if (byStatus && byStatus !== "invalid_request" && byStatus !== "not_found") return byStatus;
  if (envelope) return endpoint.codes?.(envelope.respCode) ?? byStatus ?? "api";
  return byStatus ?? "api";
}

function retryAfterSeconds(headers: Headers): number | undefined {
  const ms = parseRetryAfter(headers.get("retry-after"), Date.now());
  return ms === undefined ? undefined : Math.ceil(ms / 1000);
}

export function readResponse(answer: HttpAnswer, ctx: ReadContext): Reading {
  const { endpoint } = ctx;
  const requestId = answer.headers.get("x-request-id") ?? ctx.requestId;
  let body: unknown;
  let parseFailed = false;
  if (answer.text.length > 0) {
    try {
      body = parseJson(answer.text);
    } catch {
      parseFailed = true;
    }
  }
  const envelope = parseFailed ? undefined : readEnvelope(body);
  const is2xx = answer.status >= 200 && answer.status < 300;

  if (is2xx && envelope === undefined) {
    const secrets = ctx.secrets?.();
    const message =
      parseFailed || answer.text.length === 0
        ? "body is not valid JSON"
        : "body is not a { respCode, respMsg, data } envelope";
    return {
      ok: false,
      envelope,
      error: new ResponseValidationError([{ path: "", message }], {
        path: endpoint.path,
        httpStatus: answer.status,
        body: parseFailed ? excerpt(answer.text, secrets) : redact(body, { secrets }),
        malformed: parseFailed || answer.text.length === 0,
        idempotencyKey: ctx.idempotencyKey,
      }),
    };
  }

  if (is2xx && envelope && isSuccess(envelope)) {
    // The body is fresh from parseJson and nobody else's: the endpoint may decode its data in
    // place, and parses the text again for the schema when its fast path was unsure.
    let changed = false;
    const fresh = () => {
      changed = true;
      return (readEnvelope(parseJson(answer.text)) as Envelope).data;
    };
    const result =
      endpoint.parseResponse?.(envelope.data, fresh) ??
      v.safeParse(endpoint.response, envelope.data);
    if (result.success) return { ok: true, data: result.output, envelope, requestId };
    // What the error shows is the answer as it arrived, not a half-decoded copy.
    if (changed) body = parseJson(answer.text);
    return {
      ok: false,
      envelope,
      error: new ResponseValidationError(
        toValidationIssues(result.issues).map((i) => ({
          ...i,
          path: i.path ? `data.${i.path}` : "data",
        })),
        {
          path: endpoint.path,
          httpStatus: answer.status,
          body: redact(body, { secrets: ctx.secrets?.() }),
          idempotencyKey: ctx.idempotencyKey,
        },
      ),
    };
  }

  const kind = apiErrorKind(endpoint, answer.status, envelope);
  const secrets = ctx.secrets?.();
  // The service's own words can hold a card number or echo a key: masked like the body.
  const respMsg =
    typeof envelope?.respMsg === "string"
      ? redactText(envelope.respMsg, { secrets })
      : envelope?.respMsg;
  const what = envelope ? `respCode ${envelope.respCode}` : `HTTP ${answer.status}`;
  const text = respMsg ?? (is2xx ? "request failed" : `HTTP ${answer.status}`);
  return {
    ok: false,
    envelope,
    error: createApiError(kind, {
      message: `${text} (${what}, ${endpoint.path})`,
      respCode: envelope?.respCode,
      respMsg,
      httpStatus: answer.status,
      requestId,
      idempotencyKey: ctx.idempotencyKey,
      path: endpoint.path,
      body: parseFailed ? excerpt(answer.text, secrets) : redact(body, { secrets }),
      detail: envelope?.error === undefined ? undefined : redact(envelope.error, { secrets }),
      retryAfterSeconds: retryAfterSeconds(answer.headers),
    }),
  };
}

/**
 * The service's envelope: { respCode, respMsg, data }. HTTP 200 does not mean success; only
 * respCode "20000" does (and, for Global Account detail, `success` not false). The account
 * area's documented siblings answer with { code, message }, accepted as aliases.
 */
import type { ApiErrorKind } from "../errors/api-error";

export const SUCCESS_CODE = "20000";

export interface Envelope {
  respCode: string;
  respMsg: string | null;
  data: unknown;
  /** Global Account detail only. */
  success: boolean | undefined;
  /** Account area: the structured error object, omitted when null. */
  error: unknown;
}

function codeText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isInteger(value)) return String(value);
  return undefined;
}

/** Reads the envelope out of a parsed body; undefined when the body is not an envelope at all. */
export function readEnvelope(body: unknown): Envelope | undefined {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  const record = body as Record<string, unknown>;
  const respCode = codeText(record.respCode) ?? codeText(record.code);
  if (respCode === undefined) return undefined;
  const msg = record.respMsg !== undefined ? record.respMsg : record.message;
  return {
    respCode,
    respMsg: typeof msg === "string" ? msg : null,
    data: record.data,
    success: typeof record.success === "boolean" ? record.success : undefined,
    error: record.error ?? undefined,
  };
}

export function isSuccess(envelope: Envelope): boolean {
  return envelope.respCode === SUCCESS_CODE && envelope.success !== false;
}

/** The error kind for a failed HTTP status, before the body is considered. */
export function kindForHttpStatus(status: number): ApiErrorKind | undefined {
  if (status === 401) return "authentication";
  if (status === 403) return "permission";
  if (status === 404) return "not_found";
  if (status === 409) return "duplicate";
  if (status === 429) return "rate_limit";
  if (status >= 500) return "server";
  if (status >= 400) return "invalid_request";
  return undefined;
}

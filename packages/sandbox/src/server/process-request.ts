/**
 * One call to a simulated endpoint, from the raw body text to the answer, synchronously (so
 * nothing interleaves between the idempotency check and the store): header auth, lossless
 * parse, body auth, decode with the endpoint's request codec, due transitions, idempotency,
 * the area's handler, encode with the response codec, envelope.
 */
import { type ContractEndpoint, c } from "@merchantkit/contract";
import { parseJson, stringifyJson, toValidationIssues } from "@merchantkit/core";
import { SandboxError } from "../runtime/sandbox-error";
import { signSync } from "../runtime/sign-sync";
import { AREA_CODES, INTERNAL_ERROR_CODE } from "./area-codes";
import { checkBody, checkHeaders } from "./authenticate";
import { type Failure, failureOutcome, internalError, type Outcome, successText } from "./envelope";
import { IdempotencyStore } from "./idempotency-store";
import type { SandboxHost } from "./sandbox-host";

export function processRequest(
  host: SandboxHost,
  endpoint: ContractEndpoint,
  headers: Headers,
  text: string,
): Outcome {
  const { runtime, config } = host;
  const fail = (f: Failure) => failureOutcome(endpoint, f);
  const paramError = (respMsg: string, details?: Failure["details"]) =>
    fail({
      respCode: AREA_CODES[endpoint.area].parameterError,
      respMsg,
      ...(details ? { details } : {}),
    });

  const headerFailure = checkHeaders(endpoint, headers, config, runtime.clock.now());
  if (headerFailure) return fail(headerFailure);

  let body: unknown;
  try {
    body = parseJson(text);
  } catch {
    return paramError("parameter error: the request body is not valid JSON");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return paramError("parameter error: the request body must be a JSON object");
  }
  const auth = checkBody(endpoint, body as Record<string, unknown>, config);
  if ("failure" in auth) return fail(auth.failure);

  // The sign is transport, not a parameter: it must not reach the handler or the fingerprint.
  const { sign: _sign, ...fields } = body as Record<string, unknown>;
  const decoded = c.decodeWire(endpoint.requestCodec, endpoint.auth === "sign" ? fields : body);
  if (!decoded.success) {
    const issues = toValidationIssues(decoded.issues).map((i) => ({
      path: i.path,
      message: withoutValue(i.message),
    }));
    const said = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; ");
    return paramError(
      `parameter error: ${said}`,
      issues.map((i) => ({ field: i.path, message: i.message })),
    );
  }
  const params = decoded.output as Record<string, unknown>;

  // Real time passing settles things too, not only admin clock moves.
  const now = runtime.clock.now();
  runtime.scheduler.runDue(now);

  const handler = host.handlers.get(endpoint.name);
  if (!handler) {
    return fail({
      respCode: INTERNAL_ERROR_CODE,
      respMsg: `no handler for ${endpoint.name} in this sandbox`,
      httpStatus: 501,
    });
  }

  let idemKey: string | undefined;
  let fingerprint = "";
  const keyValue = endpoint.idempotencyKey ? params[endpoint.idempotencyKey.field] : undefined;
  if (typeof keyValue === "string" && keyValue !== "") {
    idemKey = IdempotencyStore.key(endpoint.name, auth.merchantNo, keyValue);
    fingerprint = stringifyJson(params);
    const seen = host.idempotency.check(idemKey, fingerprint);
    if (seen.kind === "replay")
      return { status: 200, text: seen.text, respCode: "20000", replayed: true };
    if (seen.kind === "conflict") {
      return fail({
        respCode: AREA_CODES[endpoint.area].duplicate,
        respMsg: `duplicate request: ${endpoint.idempotencyKey?.field} was already used with different parameters`,
      });
    }
  }

  let data: unknown;
  try {
    data = handler(params, { merchantNo: auth.merchantNo, now });
  } catch (error) {
    if (error instanceof SandboxError) {
      return fail({
        respCode: error.respCode,
        respMsg: error.message,
        httpStatus: error.httpStatus,
        ...(error.detail ? { detail: error.detail } : {}),
      });
    }
    console.error(`[sandbox] handler of ${endpoint.name} threw:`, error);
    return internalError(endpoint, "the handler failed");
  }

  const answer = answerText(endpoint, data, config.secretKey);
  if (answer === undefined) return internalError(endpoint, "the answer breaks the contract");
  if (idemKey) host.idempotency.store(idemKey, { fingerprint, text: answer });
  return { status: 200, text: answer, respCode: "20000" };
}

/**
 * toValidationIssues cuts valibot's "but received …"; core's id and amount rules end with
 * ", got <value>" instead, and a value may be a card number or a secret: cut that too.
 */
function withoutValue(message: string): string {
  return message.replace(/,? got .*$/s, "");
}

/** Profit-share results carry a SHA-256 `sign` over their other fields (when the area left it out). */
function withResponseSign(wire: unknown, secretKey: string): unknown {
  if (typeof wire !== "object" || wire === null || Array.isArray(wire)) return wire;
  const record = wire as Record<string, unknown>;
  if (typeof record.sign === "string" && record.sign !== "") return wire;
  const { sign: _absent, ...fields } = record;
  return { ...fields, sign: signSync(fields, secretKey) };
}

/**
 * The success body for a handler's data: encoded straight to text by the response codec (every
 * answer but profit share's, which signs its wire fields first), else encoded, signed and then
 * written. Undefined, after logging why, when the data breaks the contract: a sandbox bug.
 */
function answerText(
  endpoint: ContractEndpoint,
  data: unknown,
  secretKey: string,
): string | undefined {
  if (endpoint.area !== "profitShare") {
    const written = c.encodeText(endpoint.responseCodec, data);
    if (written.success) return successText(endpoint, written.text);
  }
  const encoded = c.encodeWire(endpoint.responseCodec, data);
  if (!encoded.success) {
    console.error(
      `[sandbox] BUG: ${endpoint.name} returned data that breaks the contract:`,
      toValidationIssues(encoded.issues),
    );
    return undefined;
  }
  let wire = encoded.output;
  if (endpoint.area === "profitShare") wire = withResponseSign(wire, secretKey);
  try {
    return successText(endpoint, stringifyJson(wire));
  } catch (error) {
    console.error(`[sandbox] BUG: ${endpoint.name} answer cannot be written as JSON:`, error);
    return undefined;
  }
}

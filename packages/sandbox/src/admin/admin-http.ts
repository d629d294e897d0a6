/**
 * How admin routes read and answer: bodies are parsed losslessly and validated with valibot
 * (a 400 names each bad field and its rule, never the value); answers are JSON written with
 * stringifyJson, so 64-bit ids stay exact.
 */
import { parseJson, stringifyJson, toValidationIssues } from "@merchantkit/core";
import type { Context } from "hono";
import * as v from "valibot";
import { JSON_CONTENT_TYPE } from "../server/envelope";

export function adminJson(value: unknown, status = 200): Response {
  return new Response(stringifyJson(value), {
    status,
    headers: { "Content-Type": JSON_CONTENT_TYPE },
  });
}

export interface AdminProblem {
  field: string;
  message: string;
}

export function adminError(message: string, status = 400, issues?: AdminProblem[]): Response {
  return adminJson({ error: message, ...(issues ? { issues } : {}) }, status);
}

/**
 * The body checked against `schema`, or the 400 to send. An empty body reads as `{}`, so routes
 * whose fields are all optional can be called without one.
 */
export async function readAdminBody<S extends v.GenericSchema>(
  c: Context,
  schema: S,
): Promise<{ value: v.InferOutput<S> } | { response: Response }> {
  const text = await c.req.text();
  let body: unknown = {};
  if (text.trim() !== "") {
    try {
      body = parseJson(text);
    } catch {
      return { response: adminError("the body is not valid JSON") };
    }
  }
  const parsed = v.safeParse(schema, body);
  if (parsed.success) return { value: parsed.output };
  const issues = toValidationIssues(parsed.issues).map((i) => ({
    field: i.path || "(body)",
    message: i.message,
  }));
  const said = issues.map((i) => `${i.field}: ${i.message}`).join("; ");
  return { response: adminError(`invalid body: ${said}`, 400, issues) };
}

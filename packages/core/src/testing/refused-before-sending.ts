import { isRequestValidationError } from "../errors/local-errors";

/**
 * A `fetch` for clients under test that records every call and fails it: a test that a request
 * is refused before sending ends with `calls` still empty.
 */
export function recordingFetch(): { fetch: typeof fetch; calls: unknown[] } {
  const calls: unknown[] = [];
  return {
    calls,
    fetch: async (...args: Parameters<typeof fetch>) => {
      calls.push(args);
      throw new Error("nothing may be sent");
    },
  };
}

/** The "path: rule" lines of the RequestValidationError `call` rejects with (else it throws). */
export async function refusalOf(call: Promise<unknown>): Promise<string[]> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isRequestValidationError(error)) {
    throw new Error(`expected a RequestValidationError, got ${String(error)}`);
  }
  return error.issues.map((i) => `${i.path}: ${i.message}`);
}

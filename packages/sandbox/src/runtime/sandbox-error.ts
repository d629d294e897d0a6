/**
 * A failure the simulated service answers with: a business respCode inside the envelope (HTTP
 * 200, as the service does), or an HTTP status where the service uses one (401 for a bad ApiKey).
 * Handlers throw it; the server turns it into the response.
 */
export class SandboxError extends Error {
  constructor(
    readonly respCode: string,
    message: string,
    readonly httpStatus: number = 200,
    /** Account area: the structured `error` object. */
    readonly detail?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** Throws a SandboxError; reads well in handlers: `if (!card) fail("80001", "card not found")`. */
export function fail(respCode: string, message: string, httpStatus = 200): never {
  throw new SandboxError(respCode, message, httpStatus);
}

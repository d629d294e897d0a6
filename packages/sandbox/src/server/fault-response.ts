/**
 * The answer a fault rule puts in place of the real one (or in front of it, with `after`):
 * an HTTP error status, a 429 with Retry-After, a dropped connection, a truncated JSON body, or
 * an HTML page where JSON was expected.
 */
import type { HttpBindings } from "@hono/node-server";
import { stringifyJson } from "@merchantkit/core";
import type { Outcome } from "./envelope";
import type { FaultRule } from "./fault-rules";

/** Thrown when a reset is asked for in-process (no socket to destroy): fetch then rejects. */
export class InjectedResetError extends Error {
  override readonly name = "InjectedResetError";
  constructor() {
    super("connection reset by an injected fault");
  }
}

const HTML_PAGE =
  "<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head>" +
  "<body><h1>Bad Gateway</h1><p>The upstream server is unavailable.</p></body></html>";

/**
 * The replacement answer; `real` is what the endpoint answered (rules with `after`). For a
 * reset the socket is destroyed and undefined is returned: nothing is to be sent.
 */
export function faultOutcome(
  rule: FaultRule,
  env: unknown,
  real: Outcome | undefined,
): Outcome | undefined {
  switch (rule.kind) {
    case "http_status": {
      const status = rule.status ?? 503;
      return {
        status,
        respCode: undefined,
        text: stringifyJson({
          respCode: String(status),
          respMsg: `injected fault: HTTP ${status}`,
        }),
      };
    }
    case "rate_limit": {
      const seconds = rule.retryAfterSeconds ?? 1;
      return {
        status: rule.status ?? 429,
        respCode: undefined,
        headers: { "Retry-After": String(seconds) },
        text: stringifyJson({ respCode: "42900", respMsg: "injected fault: too many requests" }),
      };
    }
    case "malformed_json": {
      const whole =
        real?.text ?? stringifyJson({ respCode: "20000", respMsg: "success", data: {} });
      // Cut inside the text so it can never parse: a transfer that stopped half way.
      return {
        status: rule.status ?? 200,
        respCode: undefined,
        text: whole.slice(0, Math.max(1, Math.floor(whole.length / 2))),
      };
    }
    case "wrong_content_type":
      return {
        status: rule.status ?? 200,
        respCode: undefined,
        headers: { "Content-Type": "text/html;charset=UTF-8" },
        text: HTML_PAGE,
      };
    case "reset": {
      const socket = (env as Partial<HttpBindings> | undefined)?.incoming?.socket;
      if (!socket) throw new InjectedResetError();
      socket.destroy();
      return undefined;
    }
    default:
      return real;
  }
}

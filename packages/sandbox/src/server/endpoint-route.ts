/**
 * The Hono handler of one endpoint: faults first (delays, replaced answers, dropped
 * connections), then the request pipeline (process-request.ts), then the request log entry.
 */
import { type ContractEndpoint, originPath } from "@merchantkit/contract";
import type { Context } from "hono";
import { jsonResponse, type Outcome } from "./envelope";
import { faultOutcome } from "./fault-response";
import { processRequest } from "./process-request";
import type { SandboxHost } from "./sandbox-host";

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function endpointRoute(host: SandboxHost, endpoint: ContractEndpoint) {
  const path = originPath(endpoint);
  return async (c: Context): Promise<Response> => {
    const at = host.runtime.clock.now();
    const headers = c.req.raw.headers;
    if (c.req.method !== "POST") {
      return jsonResponse({
        status: 405,
        respCode: undefined,
        headers: { Allow: "POST" },
        text: '{"respCode":"40500","respMsg":"only POST is served"}',
      });
    }
    const plan = host.faults.take(path);
    const action = plan?.action;
    // The answer actually sent (the fault's, if one applies), logged even when a reset throws.
    const finish = (bodyText: string, real: Outcome | undefined): Response => {
      let sent: Outcome | undefined;
      try {
        sent = action ? faultOutcome(action, c.env, real) : real;
      } finally {
        host.requests.add({
          method: c.req.method,
          path,
          endpoint: endpoint.name,
          headers: Object.fromEntries(headers),
          bodyText,
          httpStatus: sent?.status,
          respCode: sent?.respCode,
          at,
          fault: action?.kind,
          replayed: !action && real?.replayed,
        });
      }
      return sent ? jsonResponse(sent) : new Response(null);
    };

    if (plan && plan.latencyBeforeMs > 0) await sleep(plan.latencyBeforeMs);
    if (action && !action.after) {
      // The body is not read before a reset: the connection dies with the request in flight.
      return finish(action.kind === "reset" ? "" : await c.req.text(), undefined);
    }
    const bodyText = await c.req.text();
    const outcome = processRequest(host, endpoint, headers, bodyText);
    if (plan && plan.latencyAfterMs > 0) await sleep(plan.latencyAfterMs);
    return finish(bodyText, outcome);
  };
}

/**
 * Admin routes of the server's own features: fault rules (/__sandbox/faults) and the request
 * log (/__sandbox/requests).
 */
import type { Hono } from "hono";
import { adminJson, readAdminBody } from "../admin/admin-http";
import { faultRuleInput } from "./fault-rules";
import type { SandboxHost } from "./sandbox-host";

export function mountServerAdmin(app: Hono, host: SandboxHost): void {
  app.post("/__sandbox/faults", async (c) => {
    const body = await readAdminBody(c, faultRuleInput);
    if ("response" in body) return body.response;
    return adminJson({ rule: host.faults.add(body.value) }, 201);
  });
  app.get("/__sandbox/faults", () => adminJson({ rules: host.faults.list() }));
  app.delete("/__sandbox/faults", () => {
    const cleared = host.faults.size;
    host.faults.clear();
    return adminJson({ cleared });
  });

  app.get("/__sandbox/requests", (c) =>
    adminJson({ requests: host.requests.list({ path: c.req.query("path") }) }),
  );
  app.delete("/__sandbox/requests", () => {
    const cleared = host.requests.size;
    host.requests.clear();
    return adminJson({ cleared });
  });
}

/**
 * Admin routes of the webhook pusher: the delivery log, redelivery, and the webhook faults
 * (duplicate and out-of-order pushes).
 */
import type { Hono } from "hono";
import * as v from "valibot";
import { adminError, adminJson, readAdminBody } from "../admin/admin-http";
import { strict, wholeNumber } from "../admin/admin-schemas";
import type { WebhookPusher } from "./webhook-pusher";

const webhookFaultsInput = strict({
  duplicateNext: v.optional(wholeNumber(0, 10_000)),
  reorderNext: v.optional(wholeNumber(0, 10_000)),
});

export function mountWebhookAdmin(app: Hono, pusher: WebhookPusher): void {
  app.get("/__sandbox/deliveries", () =>
    adminJson({ deliveries: pusher.list(), pending: pusher.pending }),
  );
  app.post("/__sandbox/deliveries/:id/redeliver", (c) => {
    const copy = pusher.redeliver(c.req.param("id"));
    if (!copy) return adminError(`no delivery ${c.req.param("id")}`, 404);
    return adminJson({ delivery: copy }, 201);
  });
  app.get("/__sandbox/webhooks/faults", () => adminJson(pusher.faults()));
  app.post("/__sandbox/webhooks/faults", async (c) => {
    const body = await readAdminBody(c, webhookFaultsInput);
    if ("response" in body) return body.response;
    return adminJson(pusher.setFaults(body.value));
  });
  app.delete("/__sandbox/webhooks/faults", () =>
    adminJson(pusher.setFaults({ duplicateNext: 0, reorderNext: 0 })),
  );
}

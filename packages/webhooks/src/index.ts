/**
 * @merchantkit/webhooks: receive the service's pushes safely — issuing webhooks (HMAC-SHA256
 * with replay window, rotation and dedupe) and payout / profit-share result notifications.
 */
// The error guards of core (isSignatureError first), so this package alone is enough to catch.
export * from "@merchantkit/core/client";
export * from "./acknowledgement";
export * from "./construct-issuing-event";
export * from "./dedupe-store";
export type { HeaderSource } from "./headers";
export * from "./notification-handler";
export * from "./notifications";
export type { RawBody } from "./raw-body";
export { answerRefusedNotification } from "./refused-answer";
export * from "./sign-issuing-webhook";
export * from "./verify-issuing-webhook";
export * from "./webhook-handler";
export type { SecretEncoding } from "./webhook-secret";

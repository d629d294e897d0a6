// The issuing webhook receiver: pushes verified, deduplicated and stored like the sync.
export { storeWebhookEvent } from "./store-event";
export {
  startWebhookReceiver,
  type WebhookReceiver,
  type WebhookReceiverOptions,
} from "./webhook-receiver";

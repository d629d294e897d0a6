// The webhook receiver: issuing pushes and payout result notifications, verified (issuing also
// deduplicated) and stored like the sync.
export { storeWebhookEvent } from "./store-event";
export {
  decodeStoredPayout,
  type PayoutNotificationResult,
  payoutRecordOf,
  storePayoutNotification,
} from "./store-payout-notification";
export {
  isPayoutPath,
  startWebhookReceiver,
  type WebhookReceiver,
  type WebhookReceiverOptions,
} from "./webhook-receiver";

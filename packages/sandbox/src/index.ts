/**
 * @merchantkit/sandbox: a stateful simulator of the whole payments service for tests, demos
 * and local development. `startSandbox()` serves it on a free port; `createSandboxApp()` gives
 * the Hono app for in-process use.
 */

// The simulated areas, for tests that build a sandbox from a chosen set, and the generator.
export { createAccountArea } from "./account/account-area";
export { GlobalAccounts, type HeldGlobalAccount } from "./account/global-accounts";
export type { ClockView } from "./admin/admin-routes";
export {
  createSandboxAdmin,
  type FaultRuleSpec,
  type SandboxAdmin,
  SandboxAdminError,
  type SandboxConfigUpdate,
  type SandboxState,
  type WebhookFaultState,
} from "./admin/sandbox-admin-client";
export { defaultAreas } from "./areas";
export {
  type GenerateOptions,
  type GenerateSummary,
  generateData,
} from "./generator/generate-data";
export {
  generateSubMerchantMovements,
  type SubMerchantGenerateOptions,
  type SubMerchantGenerateSummary,
} from "./generator/sub-merchant-movements";
export { createIssuingArea, type IssuingArea } from "./issuing/issuing-area";
export { type CardProduct, defaultProducts } from "./issuing/products";
export {
  type GroundTruth,
  issuingRecords,
  movementsByMerchant,
  type TruthAccountTransaction,
  type TruthCardTransaction,
  type TruthOperateRecord,
} from "./ledger/ground-truth";
export {
  generatePayouts,
  type PayoutGenerateOptions,
  type PayoutGenerateSummary,
} from "./payout/generate-payouts";
export { createPayoutArea } from "./payout/payout-area";
export { createProfitShareArea } from "./profit-share/profit-share-area";
export { AccountLedger, type AccountTransaction, type Posting } from "./runtime/account-ledger";
export {
  type AnyHandler,
  type Area,
  type AreaFactory,
  type CallContext,
  type Handler,
  handle,
  type Runtime,
} from "./runtime/area";
export { VirtualClock } from "./runtime/clock";
export { defaultConfig, type SandboxConfig, subMerchantNos } from "./runtime/config";
export { IdFactory, seededRandom } from "./runtime/ids";
export { type LedgerDump, MerchantLedgers } from "./runtime/merchant-ledgers";
export type { IssuingEventType, Outbox } from "./runtime/outbox";
export { fail, SandboxError } from "./runtime/sandbox-error";
export { Scheduler } from "./runtime/scheduler";
export { createSandboxApp, type SandboxApp } from "./server/create-sandbox-app";
export type { FaultKind, FaultRule } from "./server/fault-rules";
export type { RequestLogEntry } from "./server/request-log";
export type { SandboxHost } from "./server/sandbox-host";
export type { SandboxOptions } from "./server/sandbox-options";
export { type RunningSandbox, type StartSandboxOptions, startSandbox } from "./start-sandbox";
export type { Delivery, DeliveryAttempt, DeliveryKind, DeliveryState } from "./webhooks/delivery";
export { issuingSignature } from "./webhooks/issuing-signature";
export type { WebhookFaults } from "./webhooks/webhook-pusher";

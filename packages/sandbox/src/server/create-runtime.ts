/**
 * A fresh Runtime for a configuration: clock, scheduler, ids and random numbers from the seed,
 * the merchant's ledger with the opening balances (and its sub-merchants' own, opened empty), and the outbox wired to the webhook pusher.
 * The config object is shared, not copied, so admin updates reach the areas at once.
 */

import { AccountLedger } from "../runtime/account-ledger";
import type { Runtime } from "../runtime/area";
import { VirtualClock } from "../runtime/clock";
import type { SandboxConfig } from "../runtime/config";
import { IdFactory, seededRandom } from "../runtime/ids";
import { MerchantLedgers } from "../runtime/merchant-ledgers";
import { Scheduler } from "../runtime/scheduler";
import { createWebhookOutbox } from "../webhooks/webhook-outbox";
import type { WebhookPusher } from "../webhooks/webhook-pusher";

export function createRuntime(config: SandboxConfig, pusher: WebhookPusher): Runtime {
  const clock = new VirtualClock();
  const ids = new IdFactory(config.seed);
  const ledger = new AccountLedger(ids, config.balances);
  return {
    config,
    clock,
    scheduler: new Scheduler(),
    ids,
    ledger,
    ledgers: new MerchantLedgers(config, ids, ledger),
    outbox: createWebhookOutbox({
      config,
      now: () => clock.now(),
      nextId: () => ids.next(),
      pusher,
    }),
    random: seededRandom(config.seed),
  };
}

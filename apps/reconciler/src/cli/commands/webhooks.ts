// `reconciler webhooks --port N`: serves the issuing webhook endpoint and, with PAYOUT_SECRET_KEY,
// the payout result notification endpoint (a path ending in /payout) until stopped; pushes are
// verified (issuing pushes also deduplicated in Postgres) and stored through the sync's upserts.
import { createIssuingWebhookVerifier, isSignatureError } from "@merchantkit/webhooks";
import * as v from "valibot";
import { ConfigError, requireSettings, settingName } from "../../config/load-config";
import type { ReconcilerConfig } from "../../config/reconciler-config";
import { openReopening } from "../../db/reopening-database";
import { EXIT } from "../../exit-codes";
import { logEvent } from "../../log-event";
import { errorText } from "../../store/error-text";
import { finishRun, recordRun } from "../../store/sync-runs";
import { startWebhookReceiver } from "../../webhook-receiver/webhook-receiver";
import type { Command } from "../command";
import {
  commandFlags,
  configOf,
  openConfiguredDatabase,
  reportError,
  untilStopped,
} from "../command-support";
import { logSink } from "../log-sink";

const usage = "reconciler webhooks --port 8787 [--host 0.0.0.0]";

const port = v.pipe(
  v.string("needs a value"),
  v.regex(/^\d+$/, "must be a port number"),
  v.transform(Number),
  v.maxValue(65_535, "must be at most 65535"),
);

/**
 * The webhook secret as the receiver will use it (strict Base64, as the contract says), checked
 * before the database is opened (and migrated): a bad one is bad configuration, exit 2, named by
 * its variable and flag, never its value. The SDK's own message would suggest an option
 * (secretEncoding) this command does not have.
 */
function checkWebhookSecret(config: ReconcilerConfig): string {
  const secret = config.webhookSecret as string;
  try {
    createIssuingWebhookVerifier({ secret });
  } catch (error) {
    if (!isSignatureError(error) || error.reason !== "bad_secret") throw error;
    throw new ConfigError([
      `${settingName("webhookSecret")}: must be the merchant portal's webhook secret as Base64 text (A–Z, a–z, 0–9, "+", "/" and "=" padding; no spaces, quotes or prefixes) decoding to at least one byte`,
    ]);
  }
  return secret;
}

export const webhooksCommand: Command = {
  name: "webhooks",
  summary:
    "receive the service's issuing webhooks (ISSUING_WEBHOOK_SECRET) and payout result notifications (PAYOUT_SECRET_KEY, on …/payout) into the tables",
  usage,
  async run(args, io) {
    try {
      const flags = commandFlags(args, {
        port: v.optional(port, "8787"),
        host: v.optional(v.pipe(v.string("needs a value"), v.minLength(1)), "0.0.0.0"),
      });
      const config = configOf(args, io);
      requireSettings(config, ["webhookSecret"]);
      const secret = checkWebhookSecret(config);
      const log = logSink(io);
      const database = await openReopening(
        () => openConfiguredDatabase(config),
        () => logEvent({ log }, "info", "database reopened"),
      );
      try {
        const receiver = await startWebhookReceiver({
          // A push while the server is away answers 500 (the service retries); the first push
          // after it is back reopens the database.
          db: async () => (await database.current()).db,
          secret,
          // Optional: without it the payout path answers 404 and says why.
          payoutSecretKey: config.payoutSecretKey,
          port: flags.port,
          host: flags.host,
          log,
        });
        // One run row for the receiver's life, closed with what it stored.
        const runId = await recordRun((await database.current()).db, {
          stream: "webhooks",
          kind: "webhook",
        });
        logEvent({ log }, "info", "webhook receiver listening", {
          url: receiver.url,
          runId,
          payoutEndpoint: config.payoutSecretKey ? "on" : "off",
        });
        io.out(`listening on ${receiver.url}`);
        await untilStopped(io.signal);
        await receiver.close();
        const { events, payoutNotifications, counts } = receiver.stats();
        // A stop with the database away loses nothing: every push was answered (stored: 200; a
        // push refused because the database was away: 500, which the service retries). Only
        // the run row stays open (finished_at null), so the stop says so and still exits 0.
        try {
          await finishRun((await database.current()).db, runId, {
            outcome: "ok",
            recordsSeen: events,
            ...counts,
          });
        } catch (error) {
          logEvent({ log }, "warn", "webhook receiver run not closed (database away)", {
            runId,
            error: errorText(error),
          });
        }
        logEvent({ log }, "info", "webhook receiver stopped", {
          events,
          payoutNotifications,
          ...counts,
        });
        return EXIT.ok;
      } finally {
        await database.close().catch(() => {});
      }
    } catch (error) {
      return reportError(io, error, usage);
    }
  },
};

// `reconciler webhooks --port N`: serves the issuing webhook endpoint until stopped; pushes are
// verified, deduplicated in Postgres and stored through the sync's own upserts.
import * as v from "valibot";
import { requireSettings } from "../../config/load-config";
import { openReopening } from "../../db/reopening-database";
import { finishRun, recordRun } from "../../store/sync-runs";
import { logEvent } from "../../sync/log-event";
import { startWebhookReceiver } from "../../webhook-receiver/webhook-receiver";
import type { Command } from "../command";
import { commandFlags, configOf, openConfiguredDatabase, reportError } from "../command-support";
import { EXIT } from "../exit-codes";
import { logSink } from "../log-sink";

const usage = "reconciler webhooks --port 8787 [--host 0.0.0.0]";

const port = v.pipe(
  v.string("needs a value"),
  v.regex(/^\d+$/, "must be a port number"),
  v.transform(Number),
  v.maxValue(65_535, "must be at most 65535"),
);

export const webhooksCommand: Command = {
  name: "webhooks",
  summary: "receive the service's issuing webhooks (ISSUING_WEBHOOK_SECRET) into the tables",
  usage,
  async run(args, io) {
    try {
      const flags = commandFlags(args, {
        port: v.optional(port, "8787"),
        host: v.optional(v.pipe(v.string("needs a value"), v.minLength(1)), "0.0.0.0"),
      });
      const config = configOf(args, io);
      requireSettings(config, ["webhookSecret"]);
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
          secret: config.webhookSecret as string,
          port: flags.port,
          host: flags.host,
          log,
        });
        // One run row for the receiver's life, closed with what it stored.
        const runId = await recordRun((await database.current()).db, {
          stream: "webhooks",
          kind: "webhook",
        });
        logEvent({ log }, "info", "webhook receiver listening", { url: receiver.url, runId });
        io.out(`listening on ${receiver.url}`);
        await new Promise<void>((resolve) => {
          if (io.signal.aborted) resolve();
          else io.signal.addEventListener("abort", () => resolve(), { once: true });
        });
        await receiver.close();
        const { events, counts } = receiver.stats();
        await finishRun((await database.current()).db, runId, {
          outcome: "ok",
          recordsSeen: events,
          ...counts,
        });
        logEvent({ log }, "info", "webhook receiver stopped", { events, ...counts });
        return EXIT.ok;
      } finally {
        await database.close();
      }
    } catch (error) {
      return reportError(io, error, usage);
    }
  },
};

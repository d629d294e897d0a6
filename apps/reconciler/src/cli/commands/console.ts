// `reconciler console [--port 8790] [--host 127.0.0.1]`: the web console on the configured
// database until SIGINT/SIGTERM; its read pages on RECONCILER_READ_DATABASE_URL when set (a hot
// standby), its actions, sign-ins and sessions on the database. People sign in with their own
// accounts (`reconciler users add`); with no account that can sign in it refuses to start and
// says how to add one.
// RECONCILER_SECOND_APPROVAL_ABOVE sets maker-checker's amounts (config/second-approval.ts).
import * as v from "valibot";
import { SECOND_APPROVAL_SETTING, secondApprovalLimits } from "../../config/second-approval";
import { SIGN_IN_RETENTION_SETTING, signInRetentionDays } from "../../config/sign-in-retention";
import { startConsole } from "../../console/console-server";
import type { Database } from "../../db/database";
import { EXIT } from "../../exit-codes";
import { activeUserCount } from "../../workflow/console-users";
import type { Command } from "../command";
import {
  commandFlags,
  configOf,
  openConfiguredDatabase,
  openReadDatabase,
  reportError,
  untilStopped,
} from "../command-support";
import { logSink } from "../log-sink";
import { UsageError } from "../parse-args";

const usage = `reconciler console [--port 8790] [--host 127.0.0.1]   (accounts: reconciler users add; ${SECOND_APPROVAL_SETTING}=AMOUNT|CUR=AMOUNT,…; ${SIGN_IN_RETENTION_SETTING}=90)`;

export const consoleCommand: Command = {
  name: "console",
  summary:
    "serve the web console: report, break queue and actions, each person signed in with their account",
  usage,
  async run(args, io) {
    try {
      const flags = commandFlags(args, {
        port: v.optional(
          v.pipe(
            v.string("needs a port"),
            v.regex(/^\d{1,5}$/, "must be a port number"),
            v.transform(Number),
            v.maxValue(65535, "must be at most 65535"),
          ),
        ),
        host: v.optional(v.pipe(v.string("needs a host"), v.minLength(1, "needs a host"))),
      });
      if (args.positional.length > 0) throw new UsageError("console takes no arguments");
      const host = flags.host ?? "127.0.0.1";
      const secondApproval = secondApprovalLimits(io.env[SECOND_APPROVAL_SETTING]);
      const signInRetention = signInRetentionDays(io.env[SIGN_IN_RETENTION_SETTING]);
      const config = configOf(args, io);
      const database = await openConfiguredDatabase(config);
      // The read pages on a hot standby when RECONCILER_READ_DATABASE_URL names one.
      let reads: Database | undefined;
      try {
        if (config.readDatabaseUrl) reads = await openReadDatabase(config);
        if ((await activeUserCount(database.db)) === 0)
          throw new UsageError(
            "no console account can sign in yet: add one with `reconciler users add NAME --role approver` (it prints the password once), then start the console again",
          );
        const log = logSink(io);
        const running = await startConsole({
          db: database.db,
          readDb: reads?.db,
          warmFigures: true,
          secondApproval,
          entityConfig: config,
          signInRetentionDays: signInRetention,
          host,
          port: flags.port ?? 8790,
          log,
        });
        io.err(
          `console on ${running.url}/ (sign in with your account: reconciler users add/list); Ctrl-C stops it`,
        );
        await untilStopped(io.signal);
        await running.close();
        return EXIT.ok;
      } finally {
        await reads?.close();
        await database.close();
      }
    } catch (error) {
      return reportError(io, error, usage);
    }
  },
};

// `reconciler console [--port 8790] [--host 127.0.0.1]`: the web console on the configured
// database until SIGINT/SIGTERM. It needs a token: RECONCILER_CONSOLE_TOKEN, or on a loopback
// host, with its output on a terminal, one made up at start and printed for the person who
// started it; else it refuses to start without one.
import { randomBytes } from "node:crypto";
import * as v from "valibot";
import { isLoopbackHost } from "../../console/console-auth";
import { startConsole } from "../../console/console-server";
import { EXIT } from "../../exit-codes";
import type { Command, CommandIo } from "../command";
import { commandFlags, configOf, openConfiguredDatabase, reportError } from "../command-support";
import { logSink } from "../log-sink";
import { UsageError } from "../parse-args";

const usage =
  "reconciler console [--port 8790] [--host 127.0.0.1]   (token: RECONCILER_CONSOLE_TOKEN)";

/** A token shorter than this is refused: it is all that stands between the network and the actions. */
const MIN_TOKEN = 16;

/**
 * Whether what `io.err` prints reaches a terminal: the made-up token is printed there. io.isTty
 * is stdout's; stderr is asked of the process too (`reconciler console 2>>console.log` on a
 * terminal wrote the token into the file). Both, so an `io` that is not the process's (a test's)
 * is judged by its own isTty as well.
 */
const errorsOnTerminal = (io: CommandIo) => io.isTty && process.stderr.isTTY === true;

export const consoleCommand: Command = {
  name: "console",
  summary:
    "serve the web console: live report, break queue, accept/comment/assign (token required)",
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
      let token = io.env.RECONCILER_CONSOLE_TOKEN ?? "";
      const made = token === "";
      if (made) {
        if (!isLoopbackHost(host))
          throw new UsageError(
            `RECONCILER_CONSOLE_TOKEN is required to serve the console on ${host} (not a loopback address)`,
          );
        // Printed for the person at the terminal (on stderr); never into a log or a file.
        if (!errorsOnTerminal(io))
          throw new UsageError(
            "RECONCILER_CONSOLE_TOKEN is required when the output is not a terminal (stdout and stderr, where the token goes: a made-up token would be printed into a log)",
          );
        token = randomBytes(18).toString("base64url");
      } else if (token.length < MIN_TOKEN)
        throw new UsageError(`RECONCILER_CONSOLE_TOKEN must be at least ${MIN_TOKEN} characters`);
      const config = configOf(args, io);
      const database = await openConfiguredDatabase(config);
      try {
        const log = logSink(io);
        const running = await startConsole({
          db: database.db,
          token,
          host,
          port: flags.port ?? 8790,
          log,
        });
        io.err(
          `console on ${running.url}/ (sign in with ${made ? `the token ${token}` : "RECONCILER_CONSOLE_TOKEN"}); Ctrl-C stops it`,
        );
        await new Promise<void>((resolve) => {
          if (io.signal.aborted) resolve();
          else io.signal.addEventListener("abort", () => resolve(), { once: true });
        });
        await running.close();
        return EXIT.ok;
      } finally {
        await database.close();
      }
    } catch (error) {
      return reportError(io, error, usage);
    }
  },
};

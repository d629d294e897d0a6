// The `reconciler` CLI: argv → command, `help`, exit codes, and SIGINT/SIGTERM turned into
// io.signal so long commands finish the window in hand and return. runCli() wires it to the
// process; it runs by itself when this file is the entry point.
import { realpathSync } from "node:fs";
import { pathToFileURL } from "node:url";
import pkg from "../../package.json" with { type: "json" };
import { CONFIG_FLAGS } from "../config/load-config";
import { isDriverSocketFault, reportDriverSocketFault } from "../db/driver-socket-fault";
import { EXIT } from "../exit-codes";
import { logEvent } from "../log-event";
import { errorText } from "../store/error-text";
import type { Command, CommandIo } from "./command";
import { commands, findCommand } from "./commands/index";
import { parseArgs, UsageError } from "./parse-args";

function helpText(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    "usage: reconciler <command> [flags]",
    "",
    "commands:",
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    `  ${"help".padEnd(width)}  this list; \`reconciler help <command>\` for one command`,
    `  ${"version".padEnd(width)}  the installed version (also --version)`,
    "",
    "Configuration comes from the environment and flags (a flag wins): DATABASE_URL or --data-dir,",
    "MERCHANTKIT_ENVIRONMENT, ISSUING_API_KEY, ACCOUNT_API_KEY, PAYOUT_SECRET_KEY, MERCHANT_NO, ... (see docs/reconciler.md).",
    "Exit codes: 0 all done; 1 failed; 2 bad command line or configuration; 3 data left unread",
    "(retried next run; see `reconciler status`); 4 stopped by a signal; 5 ledger input rejected.",
  ].join("\n");
}

/** The flags every command takes besides its own: the settings (each also an environment variable). */
const SETTINGS_HELP = `settings, as flags or environment variables (docs/reconciler.md, Configuration): ${CONFIG_FLAGS.map((f) => `--${f}`).join(", ")}`;

function commandHelp(command: Command): string {
  return `${command.name}: ${command.summary}\nusage: ${command.usage}\n${SETTINGS_HELP}`;
}

/** Runs one command line (the words after `reconciler`) and answers the exit code. */
export async function main(argv: readonly string[], io: CommandIo): Promise<number> {
  const [first, ...rest] = argv;
  if ((first === "--version" || first === "version") && rest.length === 0) {
    io.out(`${pkg.name} ${pkg.version}`);
    return EXIT.ok;
  }
  if (first === undefined || first === "help" || first === "--help" || first === "-h") {
    // `help help` (and `help version`) is the list itself (it answered "unknown command", exit 2).
    if (
      first === "help" &&
      rest.length > 0 &&
      !(rest.length === 1 && (rest[0] === "help" || rest[0] === "version"))
    ) {
      const found = findCommand(rest);
      // A group's first word alone ("help ledger", "help breaks") shows the group's commands.
      const group = commands.filter((c) => c.name.startsWith(`${rest.join(" ")} `));
      if (found && found.rest.length === 0) io.out(commandHelp(found.command));
      else if (group.length > 0) io.out(group.map(commandHelp).join("\n\n"));
      else {
        io.err(`reconciler: unknown command "${rest.join(" ")}"\n\n${helpText()}`);
        return EXIT.usage;
      }
      return EXIT.ok;
    }
    (first === undefined ? io.err : io.out)(helpText());
    return first === undefined ? EXIT.usage : EXIT.ok;
  }
  const found = findCommand(argv);
  if (!found) {
    io.err(`reconciler: unknown command "${first}"\n\n${helpText()}`);
    return EXIT.usage;
  }
  const { command } = found;
  if (found.rest.includes("--help") || found.rest.includes("-h")) {
    io.out(commandHelp(command));
    return EXIT.ok;
  }
  let args: ReturnType<typeof parseArgs>;
  try {
    args = parseArgs(found.rest);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.err(`reconciler: ${error.message}\nusage: ${command.usage}`);
    return EXIT.usage;
  }
  return command.run(args, io);
}

/** The exit code of a process killed by SIGPIPE, which is how shells see `cmd | head -1`. */
const BROKEN_PIPE = 141;

/**
 * main() on this process: stdout/stderr, the environment, and a signal aborted by the first
 * SIGINT or SIGTERM (a second one exits at once).
 */
export async function runCli(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  const controller = new AbortController();
  const onSignal = (name: NodeJS.Signals) => {
    if (controller.signal.aborted) process.exit(name === "SIGINT" ? 130 : 143);
    process.stderr.write(`reconciler: ${name}: finishing the work in hand, then stopping\n`);
    controller.abort(new Error(name));
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  const err = (line: string) => process.stderr.write(`${line}\n`);
  // See driver-socket-fault.ts: the one uncaught error that must not end a worker.
  const onUncaught = (error: unknown) => {
    if (isDriverSocketFault(error)) {
      logEvent({ log: err }, "warn", "database connection dropped by the server");
      reportDriverSocketFault();
      return;
    }
    logEvent({ log: err }, "error", "unexpected error", { error: errorText(error) });
    process.exit(EXIT.failed);
  };
  process.on("uncaughtException", onUncaught);
  // `reconciler breaks show ID | head -1`: the reader went away. End quietly with the code of a
  // command the shell saw killed by SIGPIPE (128 + 13), not with the stack trace of an
  // unhandled 'error' event. Left in place after main(): the error comes a tick after the write.
  const onOutputError = (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(BROKEN_PIPE);
    onUncaught(error);
  };
  process.stdout.on("error", onOutputError);
  process.stderr.on("error", onOutputError);
  const io: CommandIo = {
    out: (line) => process.stdout.write(`${line}\n`),
    err,
    isTty: process.stdout.isTTY === true,
    env: process.env,
    signal: controller.signal,
  };
  let code: number;
  try {
    code = await main(argv, io);
  } catch (error) {
    process.stderr.write(`reconciler: unexpected error: ${String(error)}\n`);
    code = EXIT.failed;
  }
  process.off("SIGINT", onSignal);
  process.off("SIGTERM", onSignal);
  process.off("uncaughtException", onUncaught);
  process.exitCode = code;
  // Idle keep-alive sockets or timers must not hold a finished command open.
  setTimeout(() => process.exit(code), 2_000).unref();
}

function isEntryPoint(): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return import.meta.url === pathToFileURL(realpathSync(entry)).href;
  } catch {
    return false;
  }
}

if (isEntryPoint()) await runCli();

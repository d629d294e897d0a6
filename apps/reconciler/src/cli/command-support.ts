// What the commands share: flag checks with valibot, loading the configuration, opening the
// database it names, and turning errors into messages and exit codes.
import * as v from "valibot";
import { CONFIG_FLAGS, ConfigError, loadConfig } from "../config/load-config";
import type { ReconcilerConfig } from "../config/reconciler-config";
import { openDatabase } from "../db/connect";
import type { Database } from "../db/database";
import { EXIT } from "../exit-codes";
import { logEvent } from "../log-event";
import { BREAK_CLASSES } from "../match/break-classes";
import { errorText } from "../store/error-text";
import { terminalText } from "../text-table";
import { storeDueSettings } from "../workflow/due-dates";
import { WorkflowError } from "../workflow/workflow-error";
import type { CommandIo, ParsedArgs } from "./command";
import { SWITCH, SWITCHES, UsageError } from "./parse-args";

/** A flag value that must be an ISO 8601 date or date-time. */
export const isoDate = v.pipe(
  v.string("needs a value"),
  v.regex(/^\d{4}-\d{2}-\d{2}(T.*)?$/, "must be an ISO 8601 date or date-time"),
  v.transform((s) => new Date(s)),
  v.check((d) => !Number.isNaN(d.getTime()), "must be a real date"),
);

/**
 * Checks a command's own flags with valibot (the configuration's flags are left to
 * loadConfig; any other flag is a UsageError naming it). Words that are no flag are refused
 * too unless the command reads them (`positional`: it checks them itself): `run extra` ran as
 * if the word were not there.
 */
export function commandFlags<S extends v.ObjectEntries>(
  args: ParsedArgs,
  entries: S,
  opts: { positional?: boolean } = {},
): v.InferOutput<v.ObjectSchema<S, undefined>> {
  if (!opts.positional && args.positional.length > 0)
    throw new UsageError(`unexpected argument(s): ${args.positional.join(" ")}`);
  for (const [name, schema] of Object.entries(entries))
    if (schema === SWITCH && !SWITCHES.has(name))
      throw new Error(`--${name} is a switch missing from parse-args.ts's SWITCHES`);
  const own = new Set(Object.keys(entries));
  const unknown = Object.keys(args.flags).filter((f) => !own.has(f) && !CONFIG_FLAGS.includes(f));
  if (unknown.length > 0)
    throw new UsageError(`unknown flag ${unknown.map((f) => `--${f}`).join(", ")}`);
  const mine = Object.fromEntries(Object.entries(args.flags).filter(([k]) => own.has(k)));
  const result = v.safeParse(v.object(entries), mine);
  if (!result.success)
    throw new UsageError(
      result.issues
        .map(
          (issue) =>
            `--${issue.path?.map((p) => String(p.key)).join(".") ?? "?"}: ${issue.message}`,
        )
        .join("; "),
    );
  return result.output;
}

export function configOf(args: ParsedArgs, io: CommandIo): ReconcilerConfig {
  // The due-date settings may name break classes: checked against the real ones.
  return loadConfig(io.env, args.flags, { breakClasses: BREAK_CLASSES });
}

/**
 * Opens the configured database, and stores its due-date settings there for the views
 * (finance_open_breaks.due_at: a view cannot read this process's environment).
 */
export async function openConfiguredDatabase(config: ReconcilerConfig): Promise<Database> {
  const database = await openDatabase(config.database);
  try {
    await storeDueSettings(database.db, config.due);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

/**
 * The database finance reads come from: the read-only standby when RECONCILER_READ_DATABASE_URL
 * names one (opened read-only, its migrations checked rather than applied), else the database.
 */
export function openReadDatabase(config: ReconcilerConfig): Promise<Database> {
  return config.readDatabaseUrl
    ? openDatabase({ url: config.readDatabaseUrl, readOnly: true })
    : openConfiguredDatabase(config);
}

/**
 * Checks the command line (`check`: flags and words, before anything is opened), then runs
 * `work` on the configured database (`open`: openReadDatabase for a finance read); answers the
 * exit code, errors reported.
 */
export async function runOnDatabase<T>(
  args: ParsedArgs,
  io: CommandIo,
  usage: string,
  check: () => T | Promise<T>,
  work: (database: Database, checked: T, config: ReconcilerConfig) => Promise<number>,
  open: (config: ReconcilerConfig) => Promise<Database> = openConfiguredDatabase,
): Promise<number> {
  try {
    const checked = await check();
    const config = configOf(args, io);
    const database = await open(config);
    try {
      return await work(database, checked, config);
    } finally {
      await database.close();
    }
  } catch (error) {
    // An unknown id, bad input or a break someone else changed meanwhile: nothing was done.
    if (error instanceof WorkflowError) {
      // It can quote what someone else typed ("already accepted (by NAME ...").
      io.err(`reconciler: ${terminalText(error.message)}`);
      return EXIT.usage;
    }
    return reportError(io, error, usage);
  }
}

/** The one word a command takes after its name (an id): `missing` says what it needs. */
export function oneWord(args: ParsedArgs, missing: string): string {
  const [word, ...rest] = args.positional;
  if (!word) throw new UsageError(missing);
  if (rest.length > 0) throw new UsageError(`unexpected words: ${rest.join(" ")}`);
  return word;
}

/** What a command did: a sentence on a terminal (terminalText), one JSON line otherwise. */
export function printOutcome(io: CommandIo, sentence: string, json: object): void {
  io.out(io.isTty ? terminalText(sentence) : JSON.stringify(json));
}

/** Resolves once the command is told to stop (SIGINT/SIGTERM abort `signal`: io.signal). */
export function untilStopped(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener("abort", () => resolve(), { once: true });
  });
}

/** Prints an error the way the user can act on it and answers the exit code. */
export function reportError(io: CommandIo, error: unknown, usage?: string): number {
  if (error instanceof UsageError) {
    io.err(`reconciler: ${error.message}`);
    if (usage) io.err(`usage: ${usage}`);
    return EXIT.usage;
  }
  if (error instanceof ConfigError) {
    io.err(`reconciler: ${error.message}`);
    return EXIT.usage;
  }
  // One JSON line like every other log line, so a log pipeline reads why the command failed.
  logEvent({ log: io.err }, "error", "command failed", { error: errorText(error) });
  return EXIT.failed;
}

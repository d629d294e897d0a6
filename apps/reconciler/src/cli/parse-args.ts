// argv → positional words and flags with node:util's parseArgs: `--name value`, `--name=value`,
// a bare `--flag` for the CLI's switches, `--` ends the flags. Each command then checks the
// flags it takes with valibot (command-support.ts).
import { parseArgs as parseNodeArgs } from "node:util";
import * as v from "valibot";
import type { ParsedArgs } from "./command";

/** Thrown for argv the CLI cannot read (a repeated flag, a value missing); main prints usage. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/**
 * The CLI's switches: flags that take no value. Every other flag takes one, so `--as alice`
 * and `--reason "known FX rounding"` read their value, and `--reason` alone is an error.
 */
export const SWITCHES: ReadonlySet<string> = new Set(["json", "no-sync", "run-now", "all", "full"]);

/**
 * A command's schema for a switch. commandFlags refuses to check a flag given this schema whose
 * name is not in SWITCHES: argv would read it as a flag taking a value (`match --full` was
 * refused with "argument missing" that way).
 */
export const SWITCH = v.optional(v.literal(true, "takes no value"));

/** The flag names an argv mentions (before `--`), so parseArgs can be strict about their kind. */
function flagNames(argv: readonly string[]): string[] {
  const end = argv.indexOf("--");
  return (end === -1 ? argv : argv.slice(0, end))
    .filter((word) => word.startsWith("--") && word.length > 2)
    .map((word) => word.slice(2).split("=")[0] as string);
}

/** Parses the words after the command name. */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  const options = Object.fromEntries(
    flagNames(argv).map((name) => {
      if (name === "") throw new UsageError(`a flag needs a name ("--" alone ends the flags)`);
      return [name, { type: SWITCHES.has(name) ? ("boolean" as const) : ("string" as const) }];
    }),
  );
  const parse = () =>
    parseNodeArgs({
      args: [...argv],
      options,
      strict: true,
      allowPositionals: true,
      tokens: true,
    });
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse();
  } catch (error) {
    // node:util words it for the person at the keyboard ("Option '--reason <value>' argument
    // missing"); keep its message, as a usage error.
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const seen = new Set<string>();
  for (const token of parsed.tokens) {
    if (token.kind !== "option") continue;
    if (seen.has(token.name)) throw new UsageError(`--${token.name} is given twice`);
    seen.add(token.name);
  }
  const flags: Record<string, string | true> = {};
  for (const [name, value] of Object.entries(parsed.values))
    if (value !== undefined && value !== false) flags[name] = value === true ? true : String(value);
  return { positional: parsed.positionals, flags };
}

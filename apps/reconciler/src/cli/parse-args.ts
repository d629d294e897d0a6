// argv → positional words and flags with node:util's parseArgs: `--name value`, `--name=value`,
// a bare `--flag` for the CLI's switches, `--` ends the flags; a word like `-99.9` is a value
// (`--amount -99.9`) or a positional word. Each command then checks the flags it takes with
// valibot (command-support.ts).
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
export const SWITCHES: ReadonlySet<string> = new Set([
  "json",
  "no-sync",
  "run-now",
  "all",
  "full",
  "overdue",
]);

/**
 * A command's schema for a switch. commandFlags refuses to check a flag given this schema whose
 * name is not in SWITCHES: argv would read it as a flag taking a value (`match --full` refused
 * with "argument missing").
 */
export const SWITCH = v.optional(v.literal(true, "takes no value"));

/** The flag names an argv mentions (before `--`), so parseArgs can be strict about their kind. */
function flagNames(argv: readonly string[]): string[] {
  const end = argv.indexOf("--");
  return (end === -1 ? argv : argv.slice(0, end))
    .filter((word) => word.startsWith("--") && word.length > 2)
    .map((word) => word.slice(2).split("=")[0] as string);
}

/**
 * A word such as `-99.9` or `-12.50 fee reversed`: node:util reads it as short options (the CLI
 * has none, so it would be refused) unless written `--amount=-99.9` or after `--`.
 */
const NEGATIVE = /^-\d/;

/**
 * The indexes (before `--`) of the words that start with '-' and a digit: parseArgs reads each
 * as the value of the flag before it when that flag takes one, else as a positional word.
 */
function negativeWords(argv: readonly string[]): Set<number> {
  const end = argv.indexOf("--");
  const found = new Set<number>();
  for (const [i, word] of argv.entries())
    if ((end === -1 || i < end) && NEGATIVE.test(word)) found.add(i);
  return found;
}

/** Parses the words after the command name. */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  const options = Object.fromEntries(
    flagNames(argv).map((name) => {
      if (name === "") throw new UsageError(`a flag needs a name ("--" alone ends the flags)`);
      return [name, { type: SWITCHES.has(name) ? ("boolean" as const) : ("string" as const) }];
    }),
  );
  // Each such word goes to node:util as "0" (a plain word in the same place) and is put back
  // from the tokens, which give each word's index.
  const negative = negativeWords(argv);
  const parse = () =>
    parseNodeArgs({
      args: argv.map((word, i) => (negative.has(i) ? "0" : word)),
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
  const positional: string[] = [];
  for (const token of parsed.tokens) {
    if (token.kind === "positional") positional.push(argv[token.index] as string);
    // `--amount -99.9`: the value is the next word.
    if (token.kind === "option" && token.inlineValue === false && negative.has(token.index + 1))
      flags[token.name] = argv[token.index + 1] as string;
  }
  return { positional, flags };
}

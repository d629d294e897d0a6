// argv → command words and flags: `--name value`, `--name=value`, a bare `--flag`, `--` ends
// the flags; everything else is positional.
import type { ParsedArgs } from "./command";

/** Thrown for argv the CLI cannot read (a repeated flag); main prints it with the usage. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/**
 * Parses the words after the command name. A flag takes the next word as its value unless that
 * word starts with "--" (so `--flag --other x` reads flag as true); `--name=value` always takes
 * the value, which is the way to pass one starting with "--".
 */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  const positional: string[] = [];
  const flags: Record<string, string | true> = {};
  const set = (name: string, value: string | true) => {
    if (name === "") throw new UsageError(`a flag needs a name ("--" alone ends the flags)`);
    if (name in flags) throw new UsageError(`--${name} is given twice`);
    flags[name] = value;
  };
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i] as string;
    if (word === "--") {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (!word.startsWith("--")) {
      positional.push(word);
      continue;
    }
    const eq = word.indexOf("=");
    if (eq !== -1) {
      set(word.slice(2, eq), word.slice(eq + 1));
      continue;
    }
    const next = argv[i + 1];
    if (next !== undefined && !next.startsWith("--")) {
      set(word.slice(2), next);
      i++;
    } else set(word.slice(2), true);
  }
  return { positional, flags };
}

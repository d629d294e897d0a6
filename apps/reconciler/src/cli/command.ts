/**
 * One CLI command. `reconciler <name> [flags]` finds the command by name (or by "<name> <sub>"
 * for two-word commands such as "ledger import") and runs it. Flags are parsed by the CLI
 * (`--key value`, `--flag`); each command validates the ones it takes with valibot.
 */
export interface CommandIo {
  /** Progress and results for a person (TTY) or structured lines (not a TTY). */
  out: (line: string) => void;
  err: (line: string) => void;
  isTty: boolean;
  env: Readonly<Record<string, string | undefined>>;
  /** Aborted on SIGINT/SIGTERM: long commands finish the current unit of work and return. */
  signal: AbortSignal;
}

export interface ParsedArgs {
  /** Positional arguments after the command name (e.g. the CSV path of "ledger import"). */
  positional: string[];
  /** `--name value` → { name: "value" }; a bare `--flag` → { flag: true }. */
  flags: Record<string, string | true>;
}

export interface Command {
  /** "sync", "ledger import", ... */
  name: string;
  summary: string;
  /** Usage lines shown by `reconciler help <name>`. */
  usage: string;
  /** Resolves to the process exit code. */
  run(args: ParsedArgs, io: CommandIo): Promise<number>;
}

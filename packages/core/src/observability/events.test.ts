// The logger interface, tried with a fake of each style a merchant plugs in: console (prints
// its arguments), winston (a message and a meta object) and pino (a fields object and a
// message; a string first takes what follows as printf arguments and drops the rest).
import { describe, expect, it } from "vitest";
import { type Logger, log } from "./events";

const FIELDS = { area: "payout" as const, path: "/api/v1/txn/query", attempt: 1 };

/** console: records what each call was given. */
function fakeConsole() {
  const calls: unknown[][] = [];
  const record = (...args: unknown[]) => calls.push(args);
  return { calls, logger: { debug: record, info: record, warn: record, error: record } };
}

/** winston: `logger.debug(message, meta)` writes `{ level, message, ...meta }`. */
function fakeWinston() {
  const lines: Record<string, unknown>[] = [];
  const at =
    (level: string) =>
    (message: string, meta?: Record<string, unknown>): void => {
      lines.push({ ...meta, level, message });
    };
  return {
    lines,
    logger: { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") },
  };
}

/**
 * pino: `logger.debug(fields, message)` writes `{ level, ...fields, msg }`; with a string first,
 * the string is the message and further arguments only fill its %s / %o placeholders.
 */
function fakePino() {
  const lines: Record<string, unknown>[] = [];
  const at =
    (level: string) =>
    (first: unknown, ...rest: unknown[]): void => {
      if (typeof first === "object" && first !== null)
        lines.push({ level, ...(first as object), msg: rest[0] });
      else lines.push({ level, msg: first });
    };
  return {
    lines,
    logger: { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") },
  };
}

describe("log (the Logger interface)", () => {
  it("calls console's methods with the message, then the fields", () => {
    const { calls, logger } = fakeConsole();
    log(logger, "debug", "merchantkit request", FIELDS);
    log(logger, "warn", "merchantkit retry", FIELDS);
    expect(calls).toEqual([
      ["merchantkit request", FIELDS],
      ["merchantkit retry", FIELDS],
    ]);
  });

  it("fits winston as it is: the fields arrive as meta", () => {
    const { lines, logger } = fakeWinston();
    log(logger, "debug", "merchantkit request", FIELDS);
    expect(lines).toEqual([{ level: "debug", message: "merchantkit request", ...FIELDS }]);
  });

  it("needs the README's adapter for pino: given pino itself, the fields are lost", () => {
    const direct = fakePino();
    log(direct.logger, "debug", "merchantkit request", FIELDS);
    expect(direct.lines).toEqual([{ level: "debug", msg: "merchantkit request" }]);

    // The adapter shown in the core README ("Hooks and logging").
    const { lines, logger: pinoLogger } = fakePino();
    const logger: Logger = {
      debug: (m, f) => pinoLogger.debug(f, m),
      warn: (m, f) => pinoLogger.warn(f, m),
    };
    log(logger, "debug", "merchantkit request", FIELDS);
    log(logger, "warn", "merchantkit retry", FIELDS);
    expect(lines).toEqual([
      { level: "debug", ...FIELDS, msg: "merchantkit request" },
      { level: "warn", ...FIELDS, msg: "merchantkit retry" },
    ]);
  });

  it("skips a level the logger does not have, and survives a logger that throws", () => {
    expect(() => log({ warn: () => {} }, "debug", "m", FIELDS)).not.toThrow();
    expect(() =>
      log(
        {
          debug: () => {
            throw new Error("sink down");
          },
        },
        "debug",
        "m",
        FIELDS,
      ),
    ).not.toThrow();
  });
});

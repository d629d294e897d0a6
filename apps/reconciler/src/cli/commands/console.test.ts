// `reconciler console` refuses to start unprotected: no token on a non-loopback host, a short
// token, or a made-up token that would be printed into a log (not a terminal). Exit 2 each.
import { describe, expect, it } from "vitest";
import { EXIT } from "../../exit-codes";
import { fakeIo } from "../../testing/cli";
import { main } from "../main";

describe("reconciler console", () => {
  it("refuses to start without a proper token", async () => {
    const cases: [string[], Record<string, string>, RegExp][] = [
      [
        ["--host", "0.0.0.0"],
        {},
        /RECONCILER_CONSOLE_TOKEN is required to serve the console on 0\.0\.0\.0/,
      ],
      [[], { RECONCILER_CONSOLE_TOKEN: "short" }, /at least 16 characters/],
      [[], {}, /required when the output is not a terminal/],
    ];
    for (const [flags, env, message] of cases) {
      const { io, err } = fakeIo(env);
      expect(await main(["console", "--data-dir", "memory://", ...flags], io)).toBe(EXIT.usage);
      expect(err.join("\n")).toMatch(message);
    }
  });

  // The made-up token goes to stderr: a terminal on stdout with stderr sent to a file
  // (`reconciler console 2>>console.log`) wrote the token into the file.
  it("makes up no token when its stderr, where the token would go, is not a terminal", async () => {
    const stderr = process.stderr as { isTTY?: boolean };
    const was = stderr.isTTY;
    stderr.isTTY = false;
    try {
      const { io, err } = fakeIo();
      const tty = { ...io, isTty: true, signal: AbortSignal.abort() };
      expect(await main(["console", "--data-dir", "memory://", "--port", "0"], tty)).toBe(
        EXIT.usage,
      );
      expect(err.join("\n")).toMatch(/required when the output is not a terminal/);
      expect(err.join("\n")).not.toMatch(/sign in with the token/);
    } finally {
      stderr.isTTY = was;
    }
  });
});

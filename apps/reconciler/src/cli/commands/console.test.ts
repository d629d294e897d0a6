// `reconciler console` refuses to start unprotected: no token on a non-loopback host, a short
// token, or a made-up token that would be printed into a log (not a terminal). Exit 2 each.
import { describe, expect, it } from "vitest";
import { EXIT } from "../exit-codes";
import { main } from "../main";
import { fakeIo } from "../test-cli";

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
});

// `reconciler console` refuses to start with no account that can sign in (saying how to add
// one) and with a malformed RECONCILER_SECOND_APPROVAL_ABOVE or RECONCILER_SIGN_IN_RETENTION_DAYS
// (naming it), exit 2 each; with an
// account it serves and stops on the signal.
import { describe, expect, it } from "vitest";
import { EXIT } from "../../exit-codes";
import { fakeIo } from "../../testing/cli";
import { temporaryFolder } from "../../testing/databases";
import { main } from "../main";

describe("reconciler console", () => {
  it("refuses to start without an account, and with a malformed second-approval amount", {
    timeout: 180_000,
  }, async () => {
    const folder = temporaryFolder("console-cli-");
    try {
      const where = ["--data-dir", folder.path, "--port", "0"];
      const stopped = () => {
        const c = fakeIo();
        return { ...c, io: { ...c.io, signal: AbortSignal.abort() } };
      };
      const none = stopped();
      expect(await main(["console", ...where], none.io)).toBe(EXIT.usage);
      expect(none.err.join("\n")).toMatch(
        /no console account can sign in yet: add one with `reconciler users add NAME --role approver`/,
      );
      expect(
        await main(
          ["users", "add", "ana", "--role", "approver", "--data-dir", folder.path],
          fakeIo().io,
        ),
      ).toBe(EXIT.ok);
      for (const [value, message] of [
        ["USD=10,EUR", /RECONCILER_SECOND_APPROVAL_ABOVE: each entry must be CODE=AMOUNT/],
        ["-5", /RECONCILER_SECOND_APPROVAL_ABOVE: the amount must be an amount/],
        ["USD=1,usd=2", /USD is given twice/],
      ] as const) {
        const bad = fakeIo({ RECONCILER_SECOND_APPROVAL_ABOVE: value });
        expect(await main(["console", ...where], bad.io), value).toBe(EXIT.usage);
        expect(bad.err.join("\n")).toMatch(message);
      }
      for (const value of ["0", "90d", "3651", "-1"]) {
        const bad = fakeIo({ RECONCILER_SIGN_IN_RETENTION_DAYS: value });
        expect(await main(["console", ...where], bad.io), value).toBe(EXIT.usage);
        expect(bad.err.join("\n")).toMatch(
          /RECONCILER_SIGN_IN_RETENTION_DAYS: must be whole days from 1 to 3650/,
        );
      }
      const served = stopped();
      expect(await main(["console", ...where], served.io)).toBe(EXIT.ok);
      expect(served.err.join("\n")).toMatch(
        /console on http:\/\/127\.0\.0\.1:\d+\/ \(sign in with your account/,
      );
      // Disabled, the last account leaves the console nobody to sign in: refused again.
      expect(await main(["users", "disable", "ana", "--data-dir", folder.path], fakeIo().io)).toBe(
        EXIT.ok,
      );
      expect(await main(["console", ...where], stopped().io)).toBe(EXIT.usage);
    } finally {
      folder.remove();
    }
  });
});

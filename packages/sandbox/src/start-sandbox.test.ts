// startSandbox with the four real areas, and the merchantkit-sandbox bin from the shell.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { defaultConfig } from "./runtime/config";
import { startSandbox } from "./start-sandbox";
import { accountHeaders, PATHS, post } from "./testing/wire-client";

describe("startSandbox", () => {
  it("serves the real areas on a free port and closes with keep-alive connections open", async () => {
    const sandbox = await startSandbox();
    try {
      expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(
        sandbox
          .areas()
          .map((a) => a.name)
          .sort(),
      ).toEqual(["account", "issuing", "payout", "profitShare"]);
      const res = await fetch(`${sandbox.url}/__sandbox/account/global-accounts`);
      const { globalAccounts } = (await res.json()) as {
        globalAccounts: { globalAccountId: string }[];
      };
      const id = globalAccounts[0]?.globalAccountId as string;
      const detail = await post(
        sandbox.url + PATHS.getDetail,
        { requestId: "start-1", globalAccountId: id },
        accountHeaders(),
      );
      expect(detail.body).toMatchObject({
        success: true,
        respCode: "20000",
        data: { globalAccountId: id },
      });
      const state = await sandbox.admin.state();
      expect(Object.keys(state.areas).sort()).toEqual([
        "account",
        "issuing",
        "payout",
        "profitShare",
      ]);
    } finally {
      await sandbox.close();
    }
    await expect(fetch(sandbox.url + PATHS.getDetail, { method: "POST" })).rejects.toThrow();
  });
});

describe("merchantkit-sandbox bin", () => {
  it("prints the origin and credentials and stops on SIGTERM", async () => {
    const bin = fileURLToPath(new URL("./bin.ts", import.meta.url));
    const child = spawn(
      process.execPath,
      [
        "--conditions=@merchantkit/source",
        "--import",
        "tsx",
        bin,
        "--port",
        "0",
        "--merchant-no",
        "M777",
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    try {
      const deadline = Date.now() + 15_000;
      while (!/webhooks /.test(output) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const origin = /listening on (http:\/\/[\d.]+:\d+)/.exec(output)?.[1];
      expect(origin, output).toBeDefined();
      expect(output).toContain("merchantNo      M777");
      expect(output).toContain(defaultConfig().accountApiKey);
      const clock = await fetch(`${origin}/__sandbox/clock`);
      expect(clock.status).toBe(200);
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  });
});

// Once the four areas exist, every endpoint of the contract's table has a handler: none of
// them may answer 501 in a real sandbox.
import { endpoints } from "@merchantkit/contract";
import { describe, expect, it } from "vitest";
import { defaultAreas } from "../areas";
import { defaultConfig } from "../runtime/config";
import { SandboxHost } from "./sandbox-host";

describe("the default areas", () => {
  it("handle every endpoint of the contract table, each exactly once", () => {
    const host = new SandboxHost(defaultConfig(), defaultAreas);
    try {
      const missing = endpoints.map((e) => e.name).filter((name) => !host.handlers.has(name));
      expect(missing).toEqual([]);
      const names = host.areas.flatMap((a) => [...a.handlers.keys()]);
      expect(names.length).toBe(new Set(names).size);
      expect(host.areas.map((a) => a.name).sort()).toEqual([
        "account",
        "issuing",
        "payout",
        "profitShare",
      ]);
    } finally {
      host.close();
    }
  });
});

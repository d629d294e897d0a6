// The app in-process, without a port: same answers, and an injected reset rejects app.fetch.
import { stringifyJson } from "@merchantkit/core";
import { afterAll, describe, expect, it } from "vitest";
import { defaultConfig } from "../runtime/config";
import { BIG_ID, fakeAreas } from "../testing/fake-areas";
import { PATHS } from "../testing/wire-client";
import { createSandboxApp } from "./create-sandbox-app";

const config = defaultConfig();
const sandbox = createSandboxApp({ areas: fakeAreas(), merchantNo: "M42", children: [] });
afterAll(() => sandbox.close());

const operate = () =>
  sandbox.app.fetch(
    new Request(`http://sandbox${PATHS.operate}`, {
      method: "POST",
      headers: { ApiKey: config.issuingApiKey },
      body: stringifyJson({ clientRequestId: "in-1", cardId: BIG_ID, type: "FREEZE" }),
    }),
  );

describe("createSandboxApp", () => {
  it("answers endpoint calls in-process with the options' configuration", async () => {
    const res = await operate();
    expect(res.status).toBe(200);
    expect(((await res.json()) as { respCode: string }).respCode).toBe("20000");
    expect(sandbox.runtime().config.merchantNo).toBe("M42");
    expect(sandbox.runtime().config.children).toEqual([]);
    expect(sandbox.areas().map((a) => a.name)).toEqual([
      "payout",
      "account",
      "issuing",
      "profitShare",
    ]);
  });

  it("rejects like a dropped connection when a reset fault fires", async () => {
    const rule = await sandbox.app.fetch(
      new Request("http://sandbox/__sandbox/faults", {
        method: "POST",
        body: JSON.stringify({ path: PATHS.operate, kind: "reset", count: 1 }),
      }),
    );
    expect(rule.status).toBe(201);
    await expect(operate()).rejects.toThrow(/connection reset/);
    expect((await operate()).status).toBe(200);
  });
});

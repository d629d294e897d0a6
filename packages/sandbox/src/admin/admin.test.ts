// The core admin API over real HTTP: validation, reset, configuration, the clock, the
// ground-truth state, area admin mounting and the request log.
import { JsonNumber, parseJson, REDACTED, stringifyJson } from "@merchantkit/core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { defaultConfig } from "../runtime/config";
import { type RunningSandbox, startSandbox } from "../start-sandbox";
import { BIG_ID, fakeAreas, newEffects } from "../testing/fake-areas";
import { accountHeaders, issuingHeaders, PATHS, post, signed } from "../testing/wire-client";
import { SandboxAdminError } from "./sandbox-admin-client";

const config = defaultConfig();
const effects = newEffects();
let sandbox: RunningSandbox;

const admin = (method: string, path: string, body?: string) =>
  fetch(`${sandbox.url}/__sandbox${path}`, { method, ...(body === undefined ? {} : { body }) });
const operate = (clientRequestId: string) =>
  post(
    sandbox.url + PATHS.operate,
    { clientRequestId, cardId: BIG_ID, type: "FREEZE" },
    issuingHeaders(),
  );

beforeAll(async () => {
  sandbox = await startSandbox({ areas: fakeAreas(effects) });
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  await sandbox.admin.reset();
  effects.operations.length = 0;
  effects.settled.length = 0;
});

describe("validation", () => {
  it("answers 400 naming the field for bad bodies on every validated route", async () => {
    const cases: [string, string, string, string][] = [
      ["POST", "/clock/advance", '{"ms":-5}', "ms"],
      ["POST", "/clock/advance", '{"ms":"soon"}', "ms"],
      ["POST", "/clock/advance", "{}", "ms"],
      ["POST", "/clock/freeze", '{"at":1.5}', "at"],
      ["POST", "/clock/unfreeze", '{"now":true}', "now"],
      ["POST", "/reset", '{"seed":2}', "seed"],
      ["POST", "/config", '{"webhookRetryIntervalMs":0}', "webhookRetryIntervalMs"],
      ["POST", "/config", '{"webhookUrls":{"issuing":"not a url"}}', "webhookUrls.issuing"],
      ["POST", "/config", '{"children":[""]}', "children[0]"],
      ["POST", "/config", '{"balances":{"USD":"1e5"}}', "balances.USD"],
      ["POST", "/config", '{"webhookSecret":"%%%"}', "webhookSecret"],
      ["POST", "/config", '{"merchantNumber":"x"}', "merchantNumber"],
    ];
    for (const [method, path, body, field] of cases) {
      const res = await admin(method, path, body);
      expect(res.status, `${path} ${body}`).toBe(400);
      expect(res.headers.get("content-type")).toBe("application/json;charset=UTF-8");
      const answer = (await res.json()) as { error: string; issues: { field: string }[] };
      expect(
        answer.issues.map((i) => i.field),
        `${path} ${body}`,
      ).toContain(field);
      expect(answer.error).toContain(field);
    }
  });

  it("answers 400 for a body that is not JSON and JSON 404 for an unknown admin route", async () => {
    const res = await admin("POST", "/clock/advance", "{ms:");
    expect(res.status).toBe(400);
    const missing = await admin("GET", "/nothing");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-type")).toBe("application/json;charset=UTF-8");
    const areaMissing = await admin("GET", "/issuing/nothing");
    expect(areaMissing.status).toBe(404);
  });

  it("throws SandboxAdminError from the client on a 4xx", async () => {
    await expect(sandbox.admin.advanceClock(-1)).rejects.toBeInstanceOf(SandboxAdminError);
  });
});

describe("configuration", () => {
  it("reads back with secrets redacted", async () => {
    const view = await sandbox.admin.config();
    expect(view).toMatchObject({
      merchantNo: config.merchantNo,
      secretKey: REDACTED,
      issuingApiKey: REDACTED,
      accountApiKey: REDACTED,
      webhookSecret: REDACTED,
    });
    expect(JSON.stringify(view)).not.toContain(config.secretKey);
  });

  it("applies a partial update at once (a new ApiKey authenticates)", async () => {
    try {
      await sandbox.admin.configure({ issuingApiKey: "rotated-key", children: ["M5", "M6"] });
      expect((await operate("cfg-1")).status).toBe(401);
      const res = await post(
        sandbox.url + PATHS.operate,
        { clientRequestId: "cfg-2", cardId: BIG_ID, type: "FREEZE" },
        issuingHeaders("rotated-key"),
      );
      expect(res.status).toBe(200);
      expect((await sandbox.admin.config()).children).toEqual(["M5", "M6"]);
    } finally {
      await sandbox.admin.configure({
        issuingApiKey: config.issuingApiKey,
        children: config.children,
      });
    }
  });
});

describe("clock", () => {
  it("freezes, advances (running due tasks) and unfreezes", async () => {
    const frozen = await sandbox.admin.freezeClock(1_800_000_000_000);
    expect(frozen).toMatchObject({
      now: 1_800_000_000_000,
      frozen: true,
      iso: "2027-01-15T08:00:00.000Z",
    });
    await operate("clk-1");
    expect(effects.settled).toHaveLength(0);
    const early = await sandbox.admin.advanceClock(config.settleDelayMs - 1);
    expect(early.ran).toBe(0);
    const due = await sandbox.admin.advanceClock(1);
    expect(due).toMatchObject({ ran: 1, now: 1_800_000_000_000 + config.settleDelayMs });
    expect(effects.settled).toHaveLength(1);
    const running = await sandbox.admin.unfreezeClock();
    expect(running.frozen).toBe(false);
    expect(Math.abs(running.now - (1_800_000_000_000 + config.settleDelayMs))).toBeLessThan(1_000);
  });
});

describe("reset", () => {
  it("gives a fresh runtime and areas, and empties the stores", async () => {
    const before = sandbox.runtime();
    await operate("rst-1");
    await sandbox.admin.injectFault({ path: "*", kind: "latency", latencyMs: 1 });
    await sandbox.admin.reset();
    expect(sandbox.runtime()).not.toBe(before);
    expect(sandbox.runtime().config).toBe(before.config);
    expect(await sandbox.admin.requests()).toEqual([]);
    expect(await sandbox.admin.faults()).toEqual([]);
    // The idempotency store is gone too: the same key is a new operation.
    await operate("rst-1");
    expect(effects.operations.filter((o) => o.clientRequestId === "rst-1")).toHaveLength(2);
    // Same seed, fresh ids: the first id after a reset is the first id of the seed.
    const first = effects.operations[0]?.operateRecordId;
    expect(effects.operations[1]?.operateRecordId).toBe(first);
  });
});

describe("state", () => {
  it("dumps every area, the ledger and the clock, 64-bit ids exact", async () => {
    const res = await admin("GET", "/state");
    expect(res.headers.get("content-type")).toBe("application/json;charset=UTF-8");
    const text = await res.text();
    expect(text).toContain(`"bigId":"${BIG_ID}"`);
    const state = await sandbox.admin.state();
    expect(Object.keys(state.areas).sort()).toEqual([
      "account",
      "issuing",
      "payout",
      "profitShare",
    ]);
    expect(state.areas.issuing?.bigId).toBe(BIG_ID);
    expect(state.ledger.balances).toEqual(config.balances);
    expect(state.config.secretKey).toBe(REDACTED);
    expect(typeof state.clock.now).toBe("number");
  });

  it("writes ledger transactions with their 64-bit ids as text", async () => {
    const { ledger, clock } = sandbox.runtime();
    const txn = ledger.debit({
      serviceId: BIG_ID,
      currency: "USD",
      amount: "10.10",
      businessType: "CARD",
      at: clock.now(),
    });
    const state = await sandbox.admin.state();
    expect(state.ledger.transactions).toEqual([parseJson(stringifyJson(txn))]);
    expect(state.ledger.balances.USD).toBe("999989.90");
    const res = await post(
      sandbox.url + PATHS.transactions,
      { requestId: "st-1", serviceIds: [new JsonNumber(BIG_ID)] },
      accountHeaders(),
    );
    expect(res.body.respCode).toBe("20000");
    expect(res.text).toContain(`"serviceId":${BIG_ID}`);
    expect(res.text).toContain(`"acntTxnId":${txn.acntTxnId}`);
  });
});

describe("request log", () => {
  it("records requests with secrets redacted and filters by path", async () => {
    await post(sandbox.url + PATHS.queryAcctCurrency, signed({ currency: "USD" }));
    await operate("log-1");
    const all = await sandbox.admin.requests();
    expect(all.map((e) => e.endpoint)).toEqual([
      "payout.acct.queryAcctCurrency",
      "issuing.card.operate",
    ]);
    const [payout, issuing] = all;
    expect(payout).toMatchObject({
      method: "POST",
      path: PATHS.queryAcctCurrency,
      httpStatus: 200,
      respCode: "20000",
    });
    expect(payout?.body).toMatchObject({ sign: REDACTED });
    expect(issuing?.headers.apikey).toBe(REDACTED);
    expect(issuing?.body).toMatchObject({ clientRequestId: "log-1" });
    const filtered = await sandbox.admin.requests({ path: PATHS.operate });
    expect(filtered).toHaveLength(1);
    await sandbox.admin.clearRequests();
    expect(await sandbox.admin.requests()).toEqual([]);
  });
});

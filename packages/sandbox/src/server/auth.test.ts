// Authentication per endpoint.auth, over real HTTP: sign + merchantNo (payout, profit share),
// ApiKey (issuing), apikey + x-timestamp + onBehalfOf (account).
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { defaultConfig } from "../runtime/config";
import { type RunningSandbox, startSandbox } from "../start-sandbox";
import { fakeAreas, newEffects } from "../testing/fake-areas";
import { accountHeaders, issuingHeaders, PATHS, post, signed } from "../testing/wire-client";

const config = defaultConfig();
const effects = newEffects();
let sandbox: RunningSandbox;
const url = (path: string) => sandbox.url + path;

beforeAll(async () => {
  sandbox = await startSandbox({ areas: fakeAreas(effects) });
});
afterAll(() => sandbox.close());

describe("sign (payout, profit share)", () => {
  it("accepts a correct sign and answers 20000", async () => {
    const res = await post(url(PATHS.queryAcctCurrency), signed({ currency: "USD" }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ respCode: "20000", data: [{ currency: "USD" }] });
  });

  it("answers 40100 with HTTP 200 for a wrong or missing sign", async () => {
    const wrong = await post(
      url(PATHS.queryAcctCurrency),
      signed({ currency: "USD" }, "other-key"),
    );
    expect(wrong.status).toBe(200);
    expect(wrong.body).toMatchObject({ respCode: "40100", data: null });
    const { sign: _s, ...unsigned } = signed({ currency: "USD" });
    const missing = await post(url(PATHS.queryAcctCurrency), unsigned);
    expect(missing.body.respCode).toBe("40100");
    const profit = await post(url(PATHS.profitQuery), signed({ profitReference: "P-1" }, "x"));
    expect(profit.body.respCode).toBe("40100");
  });

  it("answers 40100 when a signed field was changed after signing", async () => {
    const body = signed({ currency: "USD" });
    const res = await post(url(PATHS.queryAcctCurrency), { ...body, currency: "EUR" });
    expect(res.body.respCode).toBe("40100");
  });

  it("answers 40101 for a merchantNo that is neither the merchant nor a child", async () => {
    const res = await post(url(PATHS.queryAcctCurrency), signed({ merchantNo: "M9999999" }));
    expect(res.body).toMatchObject({ respCode: "40101" });
  });

  it("lets a child merchantNo through and hands it to the handler", async () => {
    const child = config.children[0] as string;
    const res = await post(url(PATHS.queryAcctCurrency), signed({ merchantNo: child }));
    expect(res.body.respCode).toBe("20000");
    expect(effects.calls.at(-1)).toEqual({ endpoint: "queryAcctCurrency", merchantNo: child });
  });
});

describe("ApiKey (issuing)", () => {
  const body = { clientRequestId: "auth-1", cardId: "1953712585351499776", type: "FREEZE" };

  it("answers HTTP 401 with 81000 for a wrong or missing ApiKey", async () => {
    for (const headers of [issuingHeaders("wrong"), {}]) {
      const res = await post(url(PATHS.operate), body, headers);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ respCode: "81000", respMsg: "unauthorized merchant", data: null });
    }
  });

  it("accepts the configured ApiKey (header names are case-insensitive)", async () => {
    const res = await post(url(PATHS.operate), body, { apikey: config.issuingApiKey });
    expect(res.status).toBe(200);
    expect(res.body.respCode).toBe("20000");
  });
});

describe("apikey + x-timestamp + onBehalfOf (account)", () => {
  const detail = (extra: Record<string, unknown> = {}) => ({
    requestId: `r-${Math.random()}`,
    globalAccountId: "1953712585351499776",
    ...extra,
  });

  it("answers HTTP 401 / 40100 for a wrong apikey", async () => {
    const res = await post(url(PATHS.getDetail), detail(), accountHeaders({ apiKey: "wrong" }));
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({
      success: false,
      respCode: "40100",
      error: { code: "40100" },
    });
    expect(res.body).not.toHaveProperty("data");
  });

  it("rejects an x-timestamp 11 minutes old and accepts a fresh one, in 10 and 13 digits", async () => {
    const now = Date.now();
    const stale = now - 11 * 60 * 1000;
    for (const ts of [String(stale), String(Math.floor(stale / 1000))]) {
      const res = await post(url(PATHS.getDetail), detail(), accountHeaders({ timestamp: ts }));
      expect(res.status).toBe(401);
      expect(res.body.respCode).toBe("40101");
    }
    for (const ts of [String(now), String(Math.floor(now / 1000))]) {
      const res = await post(url(PATHS.getDetail), detail(), accountHeaders({ timestamp: ts }));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: true, respCode: "20000" });
    }
  });

  it("rejects a missing or malformed x-timestamp", async () => {
    for (const ts of [undefined, "12345", `${Date.now()}.5`, "abcdefghij"]) {
      const headers: Record<string, string> = accountHeaders();
      if (ts === undefined) delete headers["x-timestamp"];
      else headers["x-timestamp"] = ts;
      const res = await post(url(PATHS.getDetail), detail(), headers);
      expect(res.status).toBe(401);
      expect(res.body.respCode).toBe("40101");
    }
  });

  it("follows the virtual clock: a timestamp matching a moved clock is accepted", async () => {
    await sandbox.admin.advanceClock(60 * 60 * 1000);
    try {
      const old = await post(url(PATHS.getDetail), detail(), accountHeaders());
      expect(old.body.respCode).toBe("40101");
      const moved = String(Date.now() + 60 * 60 * 1000);
      const res = await post(url(PATHS.getDetail), detail(), accountHeaders({ timestamp: moved }));
      expect(res.body.respCode).toBe("20000");
    } finally {
      await sandbox.admin.reset();
    }
  });

  it("accepts onBehalfOf a child and passes the child as the merchant", async () => {
    const child = config.children[0] as string;
    const res = await post(url(PATHS.getDetail), detail({ onBehalfOf: child }), accountHeaders());
    expect(res.body.respCode).toBe("20000");
    expect(effects.calls.at(-1)).toEqual({ endpoint: "getDetail", merchantNo: child });
    const own = await post(url(PATHS.getDetail), detail(), accountHeaders());
    expect(own.body.respCode).toBe("20000");
    expect(effects.calls.at(-1)).toEqual({ endpoint: "getDetail", merchantNo: config.merchantNo });
  });

  it("rejects onBehalfOf a stranger: 40009 on getDetail, 40003 on transactions", async () => {
    const res = await post(
      url(PATHS.getDetail),
      detail({ onBehalfOf: "M7777777" }),
      accountHeaders(),
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: false, respCode: "40009", error: { code: "40009" } });
    const txns = await post(
      url(PATHS.transactions),
      { requestId: "t-1", onBehalfOf: "M7777777", serviceIds: ["1953712585351499776"] },
      accountHeaders(),
    );
    expect(txns.body).toMatchObject({ respCode: "40003", error: { code: "40003" } });
    expect(txns.body).not.toHaveProperty("success");
  });
});

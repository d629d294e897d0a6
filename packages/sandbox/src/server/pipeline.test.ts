// The request pipeline over real HTTP: parse, decode failures per area, idempotency, handler
// errors, broken response contracts, envelopes, headers, due transitions.
import { endpoints, originPath } from "@merchantkit/contract";
import { verifySign } from "@merchantkit/core";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { defaultConfig } from "../runtime/config";
import { type RunningSandbox, startSandbox } from "../start-sandbox";
import { BIG_ID, fakeAreas, newEffects } from "../testing/fake-areas";
import { accountHeaders, issuingHeaders, PATHS, post, signed } from "../testing/wire-client";

const config = defaultConfig();
const effects = newEffects();
let sandbox: RunningSandbox;
const url = (path: string) => sandbox.url + path;
const operate = (clientRequestId: string, extra: Record<string, unknown> = {}) =>
  post(
    url(PATHS.operate),
    { clientRequestId, cardId: BIG_ID, type: "FREEZE", ...extra },
    issuingHeaders(),
  );

beforeAll(async () => {
  sandbox = await startSandbox({ areas: fakeAreas(effects) });
});
afterAll(() => sandbox.close());
beforeEach(() => {
  effects.operations.length = 0;
  effects.calls.length = 0;
});

describe("body parsing and decoding", () => {
  it("answers the area's parameter error for a body that is not JSON", async () => {
    const issuing = await post(url(PATHS.operate), '{"clientRequestId":', issuingHeaders());
    expect(issuing.body).toMatchObject({ respCode: "40000", data: null });
    const account = await post(url(PATHS.getDetail), "not json", accountHeaders());
    expect(account.body).toMatchObject({
      success: false,
      respCode: "40001",
      error: { code: "40001" },
    });
    const payout = await post(url(PATHS.queryAcctCurrency), "[1,2]");
    expect(payout.body.respCode).toBe("40000");
  });

  it("names the fields and rules of a decode failure without echoing values", async () => {
    const res = await post(
      url(PATHS.operate),
      { clientRequestId: "x", cardId: "4111111111111111-secret", type: "EXPLODE" },
      issuingHeaders(),
    );
    expect(res.body.respCode).toBe("40000");
    const msg = String(res.body.respMsg);
    expect(msg).toMatch(/cardId/);
    expect(msg).toMatch(/type/);
    expect(res.text).not.toContain("4111111111111111");
    expect(res.text).not.toContain("EXPLODE");
  });

  it("uses each area's parameter-error code", async () => {
    const account = await post(
      url(PATHS.transactions),
      { requestId: "r", serviceIds: [] },
      accountHeaders(),
    );
    expect(account.body).toMatchObject({
      respCode: "40001",
      error: { code: "40001", details: [{ field: "serviceIds" }] },
    });
    const payout = await post(url(PATHS.queryAcctCurrency), signed({ currency: "usd" }));
    expect(payout.body.respCode).toBe("40000");
    expect(String(payout.body.respMsg)).toMatch(/currency/);
    const profit = await post(url(PATHS.profitQuery), signed({}));
    expect(profit.body.respCode).toBe("40000");
    expect(String(profit.body.respMsg)).toMatch(/profitReference/);
  });

  it("keeps 64-bit ids exact from the wire to the handler and back", async () => {
    const res = await post(
      url(PATHS.getDetail),
      { requestId: "big", globalAccountId: "1953712585351499777" },
      accountHeaders(),
    );
    expect(res.text).toContain('"globalAccountId":"1953712585351499777"');
  });
});

describe("envelopes", () => {
  it("wraps success as { respCode 20000, respMsg success, data } with the JSON content type", async () => {
    const res = await operate("env-1");
    expect(res.headers.get("content-type")).toBe("application/json;charset=UTF-8");
    expect(res.body).toMatchObject({ respCode: "20000", respMsg: "success" });
    // The id is a bare 64-bit JSON number on the wire.
    expect(res.text).toMatch(/"operateRecordId":\d{19}/);
  });

  it("turns a SandboxError into the area's failure envelope", async () => {
    const issuing = await operate("env-2", { cardId: "404" });
    expect(issuing.body).toEqual({ respCode: "80001", respMsg: "card not found", data: null });
    const account = await post(
      url(PATHS.getDetail),
      { requestId: "m", globalAccountNo: "missing" },
      accountHeaders(),
    );
    expect(account.body).toEqual({
      success: false,
      respCode: "40004",
      respMsg: "global account not found",
      error: { code: "40004", message: "global account not found" },
    });
  });

  it("adds a valid sign to profit-share results", async () => {
    const res = await post(url(PATHS.profitQuery), signed({ profitReference: "P-9" }));
    expect(res.body.respCode).toBe("20000");
    const data = res.body.data as Record<string, unknown>;
    expect(data.sign).toMatch(/^[0-9a-f]{64}$/);
    expect(await verifySign(data, config.secretKey)).toBe(true);
  });

  it("answers HTTP 500 / 50000 when a handler's data breaks the response contract", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const res = await post(
        url(PATHS.deposit),
        { clientRequestId: "dep-1", cardId: BIG_ID, amount: 10 },
        issuingHeaders(),
      );
      expect(res.status).toBe(500);
      expect(res.body.respCode).toBe("50000");
      expect(errors).toHaveBeenCalledWith(
        expect.stringContaining("issuing.card.deposit"),
        expect.anything(),
      );
    } finally {
      errors.mockRestore();
    }
  });

  it("answers HTTP 501 for an endpoint no area handles", async () => {
    const res = await post(
      url(PATHS.createCardholder),
      {
        merchantNo: config.merchantNo,
        clientRequestId: "c",
        firstName: "A",
        lastName: "B",
        email: "a@b.co",
      },
      issuingHeaders(),
    );
    expect(res.status).toBe(501);
    expect(res.headers.get("content-type")).toBe("application/json;charset=UTF-8");
  });

  it("answers JSON 404 for an unknown path and 405 for a GET on an endpoint", async () => {
    const missing = await post(url("/api/v1/merchant/card/nothing"), {});
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-type")).toBe("application/json;charset=UTF-8");
    const get = await fetch(url(PATHS.operate));
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
  });

  it("mounts every endpoint of the contract table at its origin path", async () => {
    for (const endpoint of endpoints) {
      const res = await fetch(url(originPath(endpoint)));
      expect(res.status, endpoint.name).toBe(405);
    }
  });
});

describe("idempotency", () => {
  it("replays the stored answer for the same key and params, with one effect", async () => {
    const first = await operate("idem-1");
    const second = await operate("idem-1");
    expect(second.text).toBe(first.text);
    expect(effects.operations.filter((o) => o.clientRequestId === "idem-1")).toHaveLength(1);
    const log = await sandbox.admin.requests({ path: PATHS.operate });
    expect(log.at(-1)?.replayed).toBe(true);
  });

  it("answers the area's duplicate code for the same key with different params", async () => {
    await operate("idem-2");
    const other = await operate("idem-2", { type: "UNFREEZE" });
    expect(other.body).toMatchObject({ respCode: "80010", data: null });
    const d1 = await post(
      url(PATHS.getDetail),
      { requestId: "idem-3", globalAccountId: "1" },
      accountHeaders(),
    );
    expect(d1.body.respCode).toBe("20000");
    const d2 = await post(
      url(PATHS.getDetail),
      { requestId: "idem-3", globalAccountId: "2" },
      accountHeaders(),
    );
    expect(d2.body).toMatchObject({ success: false, respCode: "40006" });
    expect(effects.operations.filter((o) => o.clientRequestId === "idem-2")).toHaveLength(1);
  });

  it("does not store failures, and keys are per merchant", async () => {
    const failed = await operate("idem-4", { cardId: "404" });
    expect(failed.body.respCode).toBe("80001");
    const retried = await operate("idem-4");
    expect(retried.body.respCode).toBe("20000");
    const child = config.children[0] as string;
    await post(
      url(PATHS.getDetail),
      { requestId: "idem-5", globalAccountId: "1" },
      accountHeaders(),
    );
    const asChild = await post(
      url(PATHS.getDetail),
      { requestId: "idem-5", globalAccountId: "2", onBehalfOf: child },
      accountHeaders(),
    );
    expect(asChild.body.respCode).toBe("20000");
  });
});

describe("due transitions", () => {
  it("runs tasks that became due in real time before the next handler", async () => {
    await sandbox.admin.configure({ settleDelayMs: 30 });
    try {
      const res = await operate("due-1");
      const id = (res.body.data as { operateRecordId: unknown }).operateRecordId;
      expect(effects.settled).not.toContain(String(id));
      await new Promise((r) => setTimeout(r, 60));
      await operate("due-2");
      expect(effects.settled).toContain(String(id));
    } finally {
      await sandbox.admin.configure({ settleDelayMs: config.settleDelayMs });
    }
  });
});

// Every fault kind, observed over real HTTP, and the fault admin routes.
import { parseJson } from "@merchantkit/core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type RunningSandbox, startSandbox } from "../start-sandbox";
import { BIG_ID, fakeAreas, newEffects } from "../testing/fake-areas";
import { issuingHeaders, PATHS, post, signed } from "../testing/wire-client";

const effects = newEffects();
let sandbox: RunningSandbox;
const url = (path: string) => sandbox.url + path;
const operate = (clientRequestId: string) =>
  post(url(PATHS.operate), { clientRequestId, cardId: BIG_ID, type: "FREEZE" }, issuingHeaders());

beforeAll(async () => {
  sandbox = await startSandbox({ areas: fakeAreas(effects) });
});
afterAll(() => sandbox.close());
afterEach(() => sandbox.admin.clearFaults());

describe("fault kinds", () => {
  it("latency delays the answer", async () => {
    await sandbox.admin.injectFault({
      path: PATHS.operate,
      kind: "latency",
      latencyMs: 150,
      count: 1,
    });
    const started = performance.now();
    const res = await operate("lat-1");
    expect(performance.now() - started).toBeGreaterThanOrEqual(120);
    expect(res.body.respCode).toBe("20000");
  });

  it("http_status answers the status for the next `count` calls only", async () => {
    await sandbox.admin.injectFault({
      path: PATHS.operate,
      kind: "http_status",
      status: 503,
      count: 2,
    });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await operate(`503-${i}`)).status);
    expect(statuses).toEqual([503, 503, 200]);
    expect(effects.operations.filter((o) => o.clientRequestId.startsWith("503-"))).toHaveLength(1);
  });

  it("rate_limit answers 429 with Retry-After", async () => {
    await sandbox.admin.injectFault({
      path: "*",
      kind: "rate_limit",
      retryAfterSeconds: 7,
      count: 1,
    });
    const res = await post(url(PATHS.queryAcctCurrency), signed({}));
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("7");
  });

  it("reset drops the connection: fetch fails with a socket error", async () => {
    await sandbox.admin.injectFault({ path: PATHS.operate, kind: "reset", count: 1 });
    const error = await operate("reset-1").then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TypeError);
    expect(String((error as Error).cause)).toMatch(/socket|closed|reset|ECONNRESET/i);
    expect((await operate("reset-2")).status).toBe(200);
    const log = await sandbox.admin.requests({ path: PATHS.operate });
    const dropped = log.find((e) => e.fault === "reset");
    expect(dropped?.httpStatus).toBeUndefined();
  });

  it("malformed_json sends JSON content type with a body that does not parse", async () => {
    await sandbox.admin.injectFault({ path: PATHS.operate, kind: "malformed_json", count: 1 });
    const res = await fetch(url(PATHS.operate), {
      method: "POST",
      headers: issuingHeaders(),
      body: JSON.stringify({ clientRequestId: "mal-1", cardId: BIG_ID, type: "FREEZE" }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    const text = await res.text();
    expect(() => parseJson(text)).toThrow(SyntaxError);
  });

  it("wrong_content_type sends an HTML page", async () => {
    await sandbox.admin.injectFault({ path: PATHS.operate, kind: "wrong_content_type", count: 1 });
    const res = await operate("html-1");
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(res.text).toMatch(/<html>/);
  });

  it("after: true processes the request, replaces the answer, and a retry replays one effect", async () => {
    await sandbox.admin.injectFault({
      path: PATHS.operate,
      kind: "http_status",
      status: 502,
      count: 1,
      after: true,
    });
    const first = await operate("after-1");
    expect(first.status).toBe(502);
    expect(effects.operations.filter((o) => o.clientRequestId === "after-1")).toHaveLength(1);
    const retry = await operate("after-1");
    expect(retry.body.respCode).toBe("20000");
    expect(effects.operations.filter((o) => o.clientRequestId === "after-1")).toHaveLength(1);
    await sandbox.admin.injectFault({
      path: PATHS.operate,
      kind: "malformed_json",
      count: 1,
      after: true,
    });
    const truncated = await operate("after-2");
    expect(truncated.text.startsWith('{"respCode":"20000"')).toBe(true);
    expect(() => parseJson(truncated.text)).toThrow();
  });

  it("probability 0 never fires and probability 1 always fires", async () => {
    await sandbox.admin.injectFault({ path: PATHS.operate, kind: "http_status", probability: 0 });
    expect((await operate("p0")).status).toBe(200);
    await sandbox.admin.clearFaults();
    await sandbox.admin.injectFault({
      path: PATHS.operate,
      kind: "http_status",
      status: 500,
      probability: 1,
      count: 2,
    });
    expect((await operate("p1-a")).status).toBe(500);
    expect((await operate("p1-b")).status).toBe(500);
    expect((await operate("p1-c")).status).toBe(200);
  });

  it("a fault on one path leaves the others alone", async () => {
    await sandbox.admin.injectFault({ path: PATHS.profitQuery, kind: "http_status" });
    expect((await operate("other-1")).status).toBe(200);
    expect((await post(url(PATHS.profitQuery), signed({ profitReference: "P" }))).status).toBe(503);
  });
});

describe("fault admin", () => {
  it("lists active rules with remaining counts and clears them", async () => {
    await sandbox.admin.injectFault({ path: PATHS.operate, kind: "http_status", count: 3 });
    await operate("list-1");
    const rules = await sandbox.admin.faults();
    expect(rules).toMatchObject([{ kind: "http_status", remaining: 2, fired: 1 }]);
    await sandbox.admin.clearFaults();
    expect(await sandbox.admin.faults()).toEqual([]);
  });

  it("rejects bad rules with a 400 naming the field", async () => {
    const bad = async (rule: unknown) => {
      const res = await fetch(`${sandbox.url}/__sandbox/faults`, {
        method: "POST",
        body: JSON.stringify(rule),
      });
      expect(res.status).toBe(400);
      return (await res.json()) as { issues: { field: string }[] };
    };
    expect((await bad({ path: "*", kind: "explode" })).issues[0]?.field).toBe("kind");
    expect((await bad({ path: "/nope", kind: "reset" })).issues[0]?.field).toBe("path");
    expect((await bad({ path: "*", kind: "latency" })).issues[0]?.field).toBe("latencyMs");
    expect((await bad({ path: "*", kind: "reset", probability: 2 })).issues[0]?.field).toBe(
      "probability",
    );
    expect((await bad({ path: "*", kind: "reset", colour: "red" })).issues[0]?.field).toBe(
      "colour",
    );
  });
});

import { type RunningSandbox, startSandbox } from "@merchantkit/sandbox";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  AccountClient,
  type AccountClientOptions,
  accountErrorOf,
  isAuthenticationError,
  isConfigurationError,
  isPermissionError,
} from "./index";

const PATH = "/account-server/api/v2/account/transactions/service/query";
const API_KEY = "sandbox-account-api-key";
const SERVICE_ID = "1953712585351499776";
const ELEVEN_MINUTES = 11 * 60 * 1000;
const TEN_MINUTES = 10 * 60 * 1000;

let sandbox: RunningSandbox;

function client(extra: Partial<AccountClientOptions> = {}) {
  return new AccountClient({
    environment: { origin: sandbox.url },
    apiKey: API_KEY,
    retryDelay: { baseDelayMs: 1, maxDelayMs: 5 },
    ...extra,
  });
}

const timestamps = async () =>
  (await sandbox.admin.requests({ path: PATH })).map((r) => ({
    header: r.headers["x-timestamp"] as string,
    at: r.at,
    httpStatus: r.httpStatus,
    respCode: r.respCode,
    fault: r.fault,
  }));

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  await sandbox.admin.clearFaults();
  await sandbox.admin.clearRequests();
});

describe("new AccountClient", () => {
  it("refuses a missing apiKey, environment or timestamp unit at construction", () => {
    const environment = { origin: "http://127.0.0.1:1" };
    const bad: unknown[] = [
      { environment },
      { environment, apiKey: "" },
      { apiKey: "k" },
      { environment: { origin: "not a url" }, apiKey: "k" },
      { environment: "staging", apiKey: "k" },
      { environment, apiKey: "k", timestampUnit: "us" },
      // A key a header cannot carry, or a blank one: refused here, not by fetch at the first call.
      { environment, apiKey: "sandbox-account-api-key\nX" },
      { environment, apiKey: "sandbox-account-api-key\u2713" },
      { environment, apiKey: "  " },
      undefined,
    ];
    for (const options of bad) {
      expect(() => new AccountClient(options as AccountClientOptions)).toThrow(
        expect.objectContaining({ name: "ConfigurationError" }),
      );
      try {
        new AccountClient(options as AccountClientOptions);
      } catch (error) {
        expect(isConfigurationError(error)).toBe(true);
        expect((error as Error).message).not.toContain("sandbox-account-api-key");
      }
    }
  });
});

describe("apikey and x-timestamp", () => {
  it("sends apikey and a millisecond x-timestamp by default, seconds when asked", async () => {
    await client().transactions.listByServiceIds([SERVICE_ID]);
    await client({ timestampUnit: "s" }).transactions.listByServiceIds([SERVICE_ID]);
    const [ms, s] = await timestamps();
    expect(ms?.header).toMatch(/^\d{13}$/);
    expect(Math.abs(Number(ms?.header) - (ms?.at ?? 0))).toBeLessThan(TEN_MINUTES);
    expect(s?.header).toMatch(/^\d{10}$/);
    expect(Math.abs(Number(s?.header) * 1000 - (s?.at ?? 0))).toBeLessThan(TEN_MINUTES);
    expect([ms?.respCode, s?.respCode]).toEqual(["20000", "20000"]);
    const [first] = await sandbox.admin.requests({ path: PATH });
    expect(first?.headers.apikey).toBe("[REDACTED]");
  });

  it("a stale x-timestamp is an AuthenticationError from the service, not retried", async () => {
    const stale = client({ now: () => Date.now() - ELEVEN_MINUTES });
    const error = await stale.transactions.listByServiceIds([SERVICE_ID]).catch((e: unknown) => e);
    expect(isAuthenticationError(error)).toBe(true);
    expect(error).toMatchObject({ httpStatus: 401, respCode: "40101" });
    expect(accountErrorOf(error)?.code).toBe("40101");
    const sent = await timestamps();
    expect(sent).toHaveLength(1);
    expect(sent[0]?.httpStatus).toBe(401);
  });

  it("computes x-timestamp per attempt: a stale first attempt, a fresh retry accepted", async () => {
    // The first attempt reads a clock 11 minutes behind; the sandbox processes it (and refuses
    // it), then the fault replaces its answer with a 503, so the transport tries again.
    let reads = 0;
    const skewed = client({
      now: () => (reads++ === 0 ? Date.now() - ELEVEN_MINUTES : Date.now()),
    });
    await sandbox.admin.injectFault({
      path: PATH,
      kind: "http_status",
      status: 503,
      after: true,
      count: 1,
    });
    const { data, response } = await skewed.transactions
      .query({ serviceIds: [SERVICE_ID] })
      .withResponse();
    expect(data.list).toEqual([]);
    expect(response.attempts).toBe(2);

    const [first, second] = await timestamps();
    expect(first?.fault).toBe("http_status");
    expect(Math.abs(Number(first?.header) - (first?.at ?? 0))).toBeGreaterThan(TEN_MINUTES);
    expect(second?.respCode).toBe("20000");
    expect(Math.abs(Number(second?.header) - (second?.at ?? 0))).toBeLessThan(TEN_MINUTES);

    // Without the fault, the same stale clock is what the service refuses.
    const stale = client({ now: () => Date.now() - ELEVEN_MINUTES, maxRetries: 0 });
    await expect(stale.transactions.query({ serviceIds: [SERVICE_ID] })).rejects.toMatchObject({
      respCode: "40101",
    });
  });

  it("a wrong apikey is an AuthenticationError", async () => {
    const wrong = client({ apiKey: "not-the-key" });
    const error = await wrong.globalAccounts
      .retrieve({ globalAccountId: "1" })
      .catch((e: unknown) => e);
    expect(isAuthenticationError(error)).toBe(true);
    expect(error).toMatchObject({ httpStatus: 401, respCode: "40100" });
  });

  it("HTTP 403 is a PermissionError and is not retried", async () => {
    await sandbox.admin.injectFault({ path: PATH, kind: "http_status", status: 403, count: 1 });
    const error = await client()
      .transactions.listByServiceIds([SERVICE_ID])
      .catch((e: unknown) => e);
    expect(isPermissionError(error)).toBe(true);
    expect(await sandbox.admin.requests({ path: PATH })).toHaveLength(1);
  });

  it("never logs the apikey, even with bodies", async () => {
    const lines: string[] = [];
    const logger = {
      debug: (message: string, fields: Record<string, unknown>) =>
        lines.push(`${message} ${JSON.stringify(fields)}`),
      warn: (message: string, fields: Record<string, unknown>) =>
        lines.push(`${message} ${JSON.stringify(fields)}`),
    };
    await client({ logger, includeBodies: true }).transactions.listByServiceIds([SERVICE_ID]);
    const text = lines.join("\n");
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(text).toContain(SERVICE_ID);
    expect(text).not.toContain(API_KEY);
  });
});

import { parseJson, stringifyJson } from "@merchantkit/core";
import { startTestServer } from "@merchantkit/core/testing";
import { type RunningSandbox, startSandbox } from "@merchantkit/sandbox";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  AccountClient,
  accountErrorOf,
  isPermissionError,
  isRequestValidationError,
  isServerError,
} from "./index";

const PATH = "/account-server/api/v2/account/transactions/service/query";
const API_KEY = "sandbox-account-api-key";
// 64-bit serviceIds beyond 2^53: any float on the way loses their last digits.
const BASE = 1953712585351499776n;
const ids = Array.from({ length: 460 }, (_, i) => String(BASE + BigInt(i)));
// Every tenth serviceId has two balance changes.
const recordsOf = (id: string) => ((BigInt(id) - BASE) % 10n === 0n ? 2 : 1);

let sandbox: RunningSandbox;
let client: AccountClient;

async function post(path: string, body: unknown): Promise<unknown> {
  const res = await fetch(`${sandbox.url}/__sandbox${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: stringifyJson(body),
  });
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
  return parseJson(await res.text());
}

/** The serviceIds each logged call carried, as digit strings. */
async function loggedCalls(): Promise<{ serviceIds: string[]; body: Record<string, unknown> }[]> {
  const requests = await sandbox.admin.requests({ path: PATH });
  return requests.map((r) => {
    const body = r.body as Record<string, unknown>;
    return { serviceIds: (body.serviceIds as unknown[]).map((id) => String(id)), body };
  });
}

function newClient(extra: Partial<ConstructorParameters<typeof AccountClient>[0]> = {}) {
  return new AccountClient({
    environment: { origin: sandbox.url },
    apiKey: API_KEY,
    retryDelay: { baseDelayMs: 1, maxDelayMs: 5 },
    ...extra,
  });
}

beforeAll(async () => {
  sandbox = await startSandbox();
  client = newClient();
  for (const id of ids) {
    for (let n = 0; n < recordsOf(id); n++) {
      await post("/account/postings", {
        direction: "credit",
        currency: "USD",
        amount: `${n + 1}.10`,
        serviceId: id,
        externalOrderId: `order-${id}-${n}`,
      });
    }
  }
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  await sandbox.admin.clearFaults();
  await sandbox.admin.clearRequests();
});

describe("transactions.listByServiceIds", () => {
  it("refuses no ids before anything is sent", async () => {
    const error = await client.transactions.listByServiceIds([]).catch((e: unknown) => e);
    expect(isRequestValidationError(error)).toBe(true);
    expect(error).toMatchObject({ issues: [{ path: "serviceIds", message: "must not be empty" }] });
    expect(await sandbox.admin.requests()).toHaveLength(0);
  });

  it("names a bad id by its position in the input, before any call goes out", async () => {
    const input = [...ids.slice(0, 150), "12a", ...ids.slice(150, 160)];
    const error = await client.transactions.listByServiceIds(input).catch((e: unknown) => e);
    expect(isRequestValidationError(error)).toBe(true);
    expect((error as { issues: { path: string }[] }).issues.map((i) => i.path)).toEqual([
      "serviceIds[150]",
    ]);
    expect(await sandbox.admin.requests()).toHaveLength(0);
  });

  it("splits 101 serviceIds into 2 calls (100 + 1) and merges them in input order", async () => {
    const input = ids.slice(0, 101);
    const records = await client.transactions.listByServiceIds(input);

    const calls = await loggedCalls();
    expect(calls).toHaveLength(2);
    expect(calls.map((c) => c.serviceIds.length).sort((a, b) => a - b)).toEqual([1, 100]);
    expect(calls.flatMap((c) => c.serviceIds).sort()).toEqual([...input].sort());

    const expected = input.flatMap((id) => Array.from({ length: recordsOf(id) }, () => id));
    expect(records.map((r) => r.serviceId)).toEqual(expected);
    expect(records[0]).toMatchObject({
      serviceId: "1953712585351499776",
      currency: "USD",
      amount: "1.10",
      externalOrderId: "order-1953712585351499776-0",
    });
  });

  it("keeps the input order of shuffled ids and sends and returns each once", async () => {
    const unique = ids.slice(0, 130).reverse();
    const input = [...unique.slice(0, 60), ...unique.slice(10, 20), ...unique.slice(60), unique[0]];
    const records = await client.transactions.listByServiceIds(input as string[]);

    const calls = await loggedCalls();
    expect(calls).toHaveLength(2);
    expect(calls.flatMap((c) => c.serviceIds)).toHaveLength(130);
    const order = records.map((r) => r.serviceId).filter((id, i, all) => all[i - 1] !== id);
    expect(order).toEqual(unique);
    expect(new Set(records.map((r) => r.acntTxnId)).size).toBe(records.length);
  });

  it("runs at most `concurrency` calls at once (default 4)", async () => {
    let inFlight = 0;
    let most = 0;
    const counting: typeof fetch = async (input, init) => {
      inFlight++;
      most = Math.max(most, inFlight);
      try {
        return await fetch(input, init);
      } finally {
        inFlight--;
      }
    };
    const counted = newClient({ fetch: counting });

    const two = await counted.transactions.listByServiceIds(ids.slice(0, 450), { concurrency: 2 });
    expect(most).toBe(2);
    expect(await loggedCalls()).toHaveLength(5);
    expect(two).toHaveLength(450 + 45);

    most = 0;
    await counted.transactions.listByServiceIds(ids);
    expect(most).toBe(4);
  });

  it("refuses a concurrency below 1 before anything is sent", async () => {
    const error = await client.transactions
      .listByServiceIds(ids.slice(0, 3), { concurrency: 0 })
      .catch((e: unknown) => e);
    expect(isRequestValidationError(error)).toBe(true);
    expect(error).toMatchObject({ field: "concurrency" });
    expect(await sandbox.admin.requests()).toHaveLength(0);
  });

  it("sends a caller's key as the requestId of one call, and as <key>.<n> across several", async () => {
    await client.transactions.listByServiceIds(ids.slice(0, 5), { idempotencyKey: "lookup-1" });
    expect((await loggedCalls()).map((c) => c.body.requestId)).toEqual(["lookup-1"]);

    await sandbox.admin.clearRequests();
    await client.transactions.listByServiceIds(ids.slice(0, 250), { idempotencyKey: "lookup-2" });
    const keys = (await loggedCalls()).map((c) => c.body.requestId);
    expect([...keys].sort()).toEqual(["lookup-2.1", "lookup-2.2", "lookup-2.3"]);
  });

  it("generates a requestId per call and keeps it across a retry (one answer, same id)", async () => {
    await sandbox.admin.injectFault({
      path: PATH,
      kind: "http_status",
      status: 503,
      after: true,
      count: 1,
    });
    const records = await client.transactions.listByServiceIds(ids.slice(0, 3));
    expect(records).toHaveLength(4);
    const requests = await sandbox.admin.requests({ path: PATH });
    expect(requests.map((r) => r.httpStatus)).toEqual([503, 200]);
    const [first, second] = requests.map((r) => (r.body as { requestId: string }).requestId);
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(second).toBe(first);
  });

  it("fails the whole lookup on a failed call and starts no further calls", async () => {
    await sandbox.admin.injectFault({ path: PATH, kind: "http_status", status: 500 });
    const error = await client.transactions
      .listByServiceIds(ids.slice(0, 450), { concurrency: 1, maxRetries: 0 })
      .catch((e: unknown) => e);
    expect(isServerError(error)).toBe(true);
    expect(await sandbox.admin.requests({ path: PATH })).toHaveLength(1);
  });

  it("acts for a sub-merchant with onBehalfOf per call; a stranger is a PermissionError", async () => {
    const child = await client.transactions.listByServiceIds(ids.slice(0, 3), {
      onBehalfOf: "M1000002",
    });
    expect(child).toEqual([]);
    expect((await loggedCalls())[0]?.body.onBehalfOf).toBe("M1000002");

    const error = await client.transactions
      .listByServiceIds(ids.slice(0, 3), { onBehalfOf: "M9999999" })
      .catch((e: unknown) => e);
    expect(isPermissionError(error)).toBe(true);
    expect(error).toMatchObject({ respCode: "40003", httpStatus: 200 });
    expect(accountErrorOf(error)).toMatchObject({ code: "40003" });
  });
});

describe("transactions.query", () => {
  it("is one call of at most 100 serviceIds", async () => {
    const error = await client.transactions
      .query({ serviceIds: ids.slice(0, 101) })
      .catch((e: unknown) => e);
    expect(isRequestValidationError(error)).toBe(true);
    expect(error).toMatchObject({
      issues: [{ path: "serviceIds", message: "must have at most 100 items" }],
    });
    expect(await sandbox.admin.requests()).toHaveLength(0);

    const { data, response } = await client.transactions
      .query({ serviceIds: [ids[0] as string], requestId: "trace-7" })
      .withResponse();
    expect(data.list.map((r) => r.serviceId)).toEqual([ids[0], ids[0]]);
    expect(response.requestId).toBe("trace-7");
    expect(response.idempotencyKey).toBe("trace-7");
  });
});

describe("merging what the service answers", () => {
  it("returns a balance change answered by two calls once, and keeps unasked ones", async () => {
    const record = (acntTxnId: string, serviceId: string) =>
      `{"acntTxnId":${acntTxnId},"serviceId":${serviceId},"currency":"USD","balanceType":"AVAILABLE","amount":"1.00","balanceUpdDate":"2026-04-28T10:00:00.000Z","businessType":"TOP_UP"}`;
    const server = await startTestServer((req, res) => {
      const asked = (parseJson(req.body) as { serviceIds: unknown[] }).serviceIds.map(String);
      // Every answer repeats record 1 (serviceId ids[0]) and adds one the call did not ask for.
      const list = [
        record("1", ids[0] as string),
        ...asked.map((id) => record(String(1000 + Number(BigInt(id) - BASE)), id)),
        record("9", "42"),
      ];
      res.setHeader("content-type", "application/json");
      res.end(`{"respCode":"20000","respMsg":"success","data":{"list":[${list.join(",")}]}}`);
    });
    try {
      const remote = new AccountClient({ environment: { origin: server.url }, apiKey: "k" });
      const records = await remote.transactions.listByServiceIds(ids.slice(0, 150));
      expect(server.requests).toHaveLength(2);
      expect(records.filter((r) => r.acntTxnId === "1")).toHaveLength(1);
      expect(records.filter((r) => r.acntTxnId === "9")).toHaveLength(1);
      expect(records.at(-1)?.acntTxnId).toBe("9");
      expect(records.slice(0, 2).map((r) => r.acntTxnId)).toEqual(["1", "1000"]);
      expect(records).toHaveLength(1 + 150 + 1);
    } finally {
      await server.close();
    }
  });
});

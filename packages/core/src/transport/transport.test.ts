import { inspect } from "node:util";
import * as v from "valibot";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  InsufficientBalanceError,
  isApiError,
  isInsufficientBalanceError,
  isRateLimitError,
  isServerError,
} from "../errors/api-error";
import {
  ConfigurationError,
  isAbortedError,
  isConfigurationError,
  isConnectionError,
  isRequestValidationError,
  isResponseValidationError,
  isTimeoutError,
} from "../errors/local-errors";
import { parseJson } from "../json/parse-json";
import { idFromWire, idToWire } from "../schema/wire-id";
import { verifySign } from "../signing/sign";
import { sendJson, startTestServer, type TestServer } from "../testing/test-server";
import { accountApiKeyAuth, issuingApiKeyAuth, signAuth } from "./auth";
import { defineEndpoint } from "./endpoint";
import { Transport } from "./transport";

const operate = defineEndpoint({
  area: "issuing",
  path: "/card/operate",
  auth: "issuingApiKey",
  kind: "write",
  idempotencyKey: { field: "clientRequestId", maxLength: 64 },
  request: v.object({
    clientRequestId: v.pipe(v.string(), v.maxLength(64)),
    cardId: idToWire(),
    type: v.picklist(["FREEZE", "UNFREEZE", "TERMINATE"]),
  }),
  response: v.looseObject({ operateRecordId: idFromWire() }),
  codes: (code: string) => (code === "80007" ? "insufficient_balance" : undefined),
});

const accountQuery = defineEndpoint({
  area: "account",
  path: "/api/v2/account/transactions/service/query",
  auth: "accountApiKey",
  kind: "read",
  idempotencyKey: { field: "requestId", maxLength: 32 },
  onBehalfOf: true,
  request: v.object({
    requestId: v.string(),
    onBehalfOf: v.optional(v.string()),
    serviceIds: v.pipe(v.array(idToWire()), v.minLength(1), v.maxLength(100)),
  }),
  response: v.looseObject({ list: v.array(v.looseObject({ serviceId: idFromWire() })) }),
});

const addBeneficiary = defineEndpoint({
  area: "payout",
  path: "/api/v1/beneficiary/add",
  auth: "sign",
  kind: "write",
  merchantNo: true,
  request: v.object({
    merchantNo: v.string(),
    merchantRefId: v.string(),
    accountInfomation: v.string(),
  }),
  response: v.looseObject({ beneficiaryId: idFromWire() }),
});

const signedQuery = defineEndpoint({
  area: "payout",
  path: "/api/v1/txn/query",
  auth: "sign",
  kind: "read",
  merchantNo: true,
  request: v.object({
    merchantNo: v.string(),
    requestId: v.string(),
    rate: v.optional(v.number()),
  }),
  response: v.looseObject({ requestId: v.string() }),
});

const ok = (data: string) => `{"respCode":"20000","respMsg":"success","data":${data}}`;
const fast = { baseDelayMs: 1, maxDelayMs: 5 };

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function issuing(extra: Partial<ConstructorParameters<typeof Transport>[0]> = {}) {
  return new Transport({
    environment: { origin: server?.url ?? "" },
    auth: issuingApiKeyAuth({ apiKey: "issuing-key-SECRET" }),
    retryDelay: fast,
    ...extra,
  });
}

/** A signed payout transport on the test server. */
function payout() {
  return new Transport({
    environment: { origin: server?.url ?? "" },
    auth: signAuth({ secretKey: "s3cret" }),
    merchantNo: "M100",
    retryDelay: fast,
  });
}

describe("Transport", () => {
  it("retries 503, 503 then succeeds in 3 attempts with the same key and a fresh x-timestamp", async () => {
    server = await startTestServer((_req, res, i) => {
      if (i < 2) return sendJson(res, 503, '{"respCode":"50300","respMsg":"busy"}');
      sendJson(res, 200, ok('{"list":[{"serviceId":1953712585351499776}]}'));
    });
    let clock = 1_700_000_000_000;
    const transport = new Transport({
      environment: { origin: server.url },
      auth: accountApiKeyAuth({ apiKey: "acct-key", timestampUnit: "ms" }),
      retryDelay: fast,
      now: () => (clock += 1000),
    });
    const { data, response } = await transport
      .request(accountQuery, { serviceIds: ["1953712585351499776"] })
      .withResponse();
    expect(data.list[0]?.serviceId).toBe("1953712585351499776");
    expect(response.attempts).toBe(3);
    expect(server.requests).toHaveLength(3);
    expect(server.requests[0]?.path).toBe(
      "/account-server/api/v2/account/transactions/service/query",
    );
    const keys = server.requests.map(
      (r) => (JSON.parse(r.body) as { requestId: string }).requestId,
    );
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toHaveLength(32);
    expect(response.idempotencyKey).toBe(keys[0]);
    const stamps = server.requests.map((r) => r.headers["x-timestamp"]);
    expect(new Set(stamps).size).toBe(3);
    expect(server.requests[0]?.body).toContain('"serviceIds":[1953712585351499776]');
  });

  it("waits for the throttle before every attempt, retries included, and sends nothing before it", async () => {
    server = await startTestServer((_req, res, i) => {
      if (i === 0) return sendJson(res, 503, '{"respCode":"50300","respMsg":"busy"}');
      sendJson(res, 200, ok('{"operateRecordId":7}'));
    });
    const order: string[] = [];
    const transport = issuing({
      throttle: async () => {
        order.push(`throttle (requests so far: ${server?.requests.length})`);
      },
    });
    await expect(transport.request(operate, { cardId: "1", type: "FREEZE" })).resolves.toEqual({
      operateRecordId: "7",
    });
    expect(order).toEqual(["throttle (requests so far: 0)", "throttle (requests so far: 1)"]);
  });

  it("ends a write whose throttle refuses a retry in a ConnectionError with its key and the throttle's error as cause", async () => {
    // A 503 answered after the service committed: the first attempt may have done the write.
    server = await startTestServer((_req, res) =>
      sendJson(res, 503, '{"respCode":"50300","respMsg":"busy"}'),
    );
    const refusal = new Error("rate limit exceeded, try later");
    let throttled = 0;
    const transport = issuing({
      throttle: async () => {
        if (throttled++ > 0) throw refusal;
      },
    });
    const err = await transport.request(operate, { cardId: "1", type: "FREEZE" }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isConnectionError(err)).toBe(true);
    expect(err).toMatchObject({ path: "/card/operate", cause: refusal });
    const key = (err as { idempotencyKey?: string }).idempotencyKey;
    expect(key).toEqual(expect.any(String));
    expect(JSON.parse(server.requests[0]?.body ?? "{}").clientRequestId).toBe(key);
    // The refusal ends the call: the throttle is not asked again, nothing more is sent.
    expect(throttled).toBe(2);
    expect(server.requests).toHaveLength(1);
  });

  it("does not retry a business error and maps its code to a typed error", async () => {
    server = await startTestServer((_req, res) =>
      sendJson(
        res,
        200,
        '{"respCode":"80007","respMsg":"merchant balance not enough","data":null}',
      ),
    );
    const err = await issuing()
      .request(operate, { cardId: "1953712585351499776", type: "FREEZE" })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(isInsufficientBalanceError(err)).toBe(true);
    expect(isApiError(err)).toBe(true);
    expect(err).toMatchObject({ respCode: "80007", httpStatus: 200, path: "/card/operate" });
    expect(server.requests).toHaveLength(1);
  });

  it("turns a stalled answer into a TimeoutError", async () => {
    server = await startTestServer(async (_req, res) => {
      await new Promise((r) => setTimeout(r, 500));
      sendJson(res, 200, ok('{"operateRecordId":1}'));
    });
    const err = await issuing({ timeoutMs: 50, maxRetries: 0 })
      .request(operate, { cardId: "1", type: "FREEZE" })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(isTimeoutError(err)).toBe(true);
    expect(isConnectionError(err)).toBe(true);
    // Not ky's TimeoutError as its cause: that holds ky's Request, whose headers carry the key,
    // and console.error(err) prints causes.
    expect((err as { cause?: unknown }).cause).toBeUndefined();
    expect(inspect(err, { depth: 10 })).not.toContain("issuing-key-SECRET");
  });

  it("refuses a timeoutMs outside 1 to 2147483647 ms, per call and per client, sending nothing", async () => {
    server = await startTestServer((_req, res) => sendJson(res, 200, ok('{"operateRecordId":1}')));
    const rule = /timeoutMs: must be a number of milliseconds from 1 to 2147483647/;
    // NaN is what `Number(process.env.X)` gives when X is unset, or `Number("30s")`.
    for (const bad of [Number.NaN, 0, -1, Number.POSITIVE_INFINITY, 2_147_483_648, 3e9]) {
      const err = await issuing()
        .request(operate, { cardId: "1", type: "FREEZE" }, { timeoutMs: bad })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(isRequestValidationError(err)).toBe(true);
      expect(err).toMatchObject({ field: "timeoutMs" });
      expect((err as Error).message).toMatch(rule);
      let thrown: unknown;
      try {
        issuing({ timeoutMs: bad });
      } catch (e) {
        thrown = e;
      }
      // A client's bad option is its configuration's fault, found when it is built.
      expect(isConfigurationError(thrown)).toBe(true);
      expect((thrown as Error).message).toMatch(rule);
    }
    expect(server.requests).toHaveLength(0);
    // The bounds themselves are taken.
    await expect(
      issuing({ timeoutMs: 2_147_483_647 }).request(operate, { cardId: "1", type: "FREEZE" }),
    ).resolves.toEqual({ operateRecordId: "1" });
    await expect(
      issuing().request(operate, { cardId: "1", type: "FREEZE" }, { timeoutMs: 2_147_483_647 }),
    ).resolves.toEqual({ operateRecordId: "1" });
    expect(server.requests).toHaveLength(2);
  });

  it("turns malformed JSON into a typed error, retrying it only where a repeat is safe", async () => {
    server = await startTestServer((_req, res) =>
      sendJson(res, 200, '{"respCode":"20000","data":{"operateRe'),
    );
    const err = await issuing({ maxRetries: 1 })
      .request(operate, { cardId: "1", type: "FREEZE" })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(isResponseValidationError(err)).toBe(true);
    expect(err).toMatchObject({ malformed: true, httpStatus: 200 });
    expect(server.requests).toHaveLength(2); // keyed write: repeat is harmless
  });

  it("rejects a response whose data breaks the schema without retrying", async () => {
    server = await startTestServer((_req, res) =>
      sendJson(res, 200, ok('{"operateRecordId":"abc"}')),
    );
    const err = await issuing()
      .request(operate, { cardId: "1", type: "FREEZE" })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(isResponseValidationError(err)).toBe(true);
    expect((err as Error).message).toContain("data.operateRecordId");
    expect(server.requests).toHaveLength(1);
  });

  it("makes exactly one attempt when maxRetries is 0", async () => {
    server = await startTestServer((_req, res) => sendJson(res, 503, "{}"));
    const err = await issuing({ maxRetries: 0 })
      .request(operate, { cardId: "1", type: "FREEZE" })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(isServerError(err)).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it("honours Retry-After on 429", async () => {
    server = await startTestServer((_req, res, i) =>
      i === 0
        ? sendJson(res, 429, '{"respCode":"42900","respMsg":"slow down"}', { "retry-after": "1" })
        : sendJson(res, 200, ok('{"operateRecordId":7}')),
    );
    const delays: number[] = [];
    const data = await issuing({ hooks: { onRetry: (e) => delays.push(e.delayMs) } }).request(
      operate,
      {
        cardId: "1",
        type: "UNFREEZE",
      },
    );
    expect(data.operateRecordId).toBe("7");
    expect(delays).toEqual([1000]);
  });

  it("backs off with jitter where Retry-After lies in the past, instead of retrying at once", async () => {
    server = await startTestServer((_req, res, i) =>
      i === 0
        ? sendJson(res, 429, '{"respCode":"42900","respMsg":"slow down"}', { "retry-after": "-5" })
        : sendJson(res, 200, ok('{"operateRecordId":7}')),
    );
    const delays: number[] = [];
    const started = performance.now();
    await issuing({
      retryDelay: { baseDelayMs: 200, maxDelayMs: 200 },
      hooks: { onRetry: (e) => delays.push(e.delayMs) },
    }).request(operate, { cardId: "1", type: "UNFREEZE" });
    expect(delays).toHaveLength(1);
    expect(delays[0]).toBeGreaterThanOrEqual(100); // jitter keeps 50–100 % of the 200 ms step
    expect(performance.now() - started).toBeGreaterThanOrEqual(90);
  });

  it("backs off with jitter where Retry-After is unreadable, and reports the delay it waited", async () => {
    for (const [status, retryAfter] of [
      [429, "abc"],
      [503, "soon"],
      [429, "  "],
    ] as const) {
      server = await startTestServer((_req, res, i) =>
        i === 0
          ? sendJson(res, status, '{"respCode":"50300","respMsg":"slow down"}', {
              "retry-after": retryAfter,
            })
          : sendJson(res, 200, ok('{"operateRecordId":7}')),
      );
      const delays: number[] = [];
      const started = performance.now();
      await issuing({
        // Before, ky waited its whole maxRetryAfter for such a header and the event said 0.
        retryDelay: { baseDelayMs: 100, maxDelayMs: 100, maxRetryAfterMs: 3000 },
        hooks: { onRetry: (e) => delays.push(e.delayMs) },
      }).request(operate, { cardId: "1", type: "UNFREEZE" });
      const waited = performance.now() - started;
      expect(delays).toHaveLength(1);
      expect(delays[0]).toBeGreaterThanOrEqual(50); // jitter keeps 50–100 % of the 100 ms step
      expect(delays[0]).toBeLessThanOrEqual(100);
      expect(waited).toBeGreaterThanOrEqual((delays[0] ?? 0) - 5);
      expect(waited).toBeLessThan(1500);
      await server.close();
      server = undefined;
    }
  });

  it("keeps the default of a retryDelay field given as undefined, and refuses a bad one", async () => {
    server = await startTestServer((_req, res, i) =>
      i === 0
        ? sendJson(res, 429, '{"respCode":"42900","respMsg":"slow down"}', {
            "retry-after": "3600",
          })
        : sendJson(res, 200, ok('{"operateRecordId":7}')),
    );
    const delays: number[] = [];
    // exactOptionalPropertyTypes is off, so `{ maxRetryAfterMs: config.cap }` with no cap
    // type-checks: spread over the defaults it turned the cap off (an hour's wait).
    const err = await issuing({
      retryDelay: { baseDelayMs: undefined, maxRetryAfterMs: undefined },
      hooks: { onRetry: (e) => delays.push(e.delayMs) },
    })
      .request(operate, { cardId: "1", type: "UNFREEZE" })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(isRateLimitError(err)).toBe(true); // the default 60 s cap refuses a 1 h wait
    expect(delays).toEqual([]);
    for (const bad of [Number.NaN, -1, Number.POSITIVE_INFINITY]) {
      expect(() => issuing({ retryDelay: { baseDelayMs: bad } })).toThrow(
        /retryDelay\.baseDelayMs: must be a number of milliseconds from 0 to/,
      );
      expect(() => issuing({ retryDelay: { baseDelayMs: bad } })).toThrow(ConfigurationError);
      expect(() => issuing({ maxRetries: bad })).toThrow(ConfigurationError);
    }
  });

  it("never retries an unkeyed write after it may have reached the service", async () => {
    server = await startTestServer((_req, res) => sendJson(res, 503, "{}"));
    const transport = payout();
    const err = await transport
      .request(addBeneficiary, { merchantRefId: "u1", accountInfomation: "{}" })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(isServerError(err)).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it("refuses options.idempotencyKey on a write whose endpoint takes no key, sending nothing", async () => {
    server = await startTestServer((_req, res) => sendJson(res, 200, ok('{"requestId":"r1"}')));
    const transport = payout();
    const err = await transport
      .request(
        addBeneficiary,
        { merchantRefId: "u1", accountInfomation: "{}" },
        { idempotencyKey: "my-key-1" },
      )
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(isRequestValidationError(err)).toBe(true);
    expect(err).toMatchObject({ field: "idempotencyKey", path: "/api/v1/beneficiary/add" });
    expect((err as Error).message).toContain(
      "idempotencyKey: is not supported by this endpoint, which takes no idempotency key",
    );
    expect(server.requests).toHaveLength(0);
    // A read without a key field needs none: the option is left unused there.
    await expect(
      transport.request(signedQuery, { requestId: "r1" }, { idempotencyKey: "my-key-1" }),
    ).resolves.toEqual({ requestId: "r1" });
    expect(server.requests).toHaveLength(1);
  });

  it("signs payout bodies with merchantNo filled in, verifiable by the receiver", async () => {
    server = await startTestServer((_req, res) =>
      sendJson(res, 200, ok('{"beneficiaryId":1953712585351499776}')),
    );
    const transport = new Transport({
      environment: { origin: server.url },
      auth: signAuth({ secretKey: "s3cret" }),
      merchantNo: "M100",
    });
    const data = await transport.request(addBeneficiary, {
      merchantRefId: "u1",
      accountInfomation: '{"cardNumber":"1"}',
    });
    expect(data.beneficiaryId).toBe("1953712585351499776");
    const sent = parseJson(server.requests[0]?.body ?? "") as Record<string, unknown>;
    expect(sent.merchantNo).toBe("M100");
    expect(server.requests[0]?.path).toBe("/payout/api/v1/beneficiary/add");
    expect(await verifySign(sent, "s3cret")).toBe(true);
    expect(await verifySign(sent, "other")).toBe(false);
  });

  it("rejects invalid params before sending, naming the field and rule", async () => {
    server = await startTestServer((_req, res) => sendJson(res, 200, ok("{}")));
    const err = await issuing()
      .request(operate, { cardId: "1", type: "MELT" as "FREEZE", clientRequestId: "x".repeat(65) })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(isRequestValidationError(err)).toBe(true);
    const message = (err as Error).message;
    expect(message).toContain("clientRequestId");
    expect(message).toContain("type");
    expect(message).not.toContain("MELT"); // rules, never values
    expect(server.requests).toHaveLength(0);
  });

  it("refuses an options object naming idempotencyKey as undefined, sending nothing", async () => {
    // The README's retry, `create(params, { idempotencyKey: error.idempotencyKey })`, after an
    // error that carries no key (a read's, a wait's) minted a new key: a second payout.
    server = await startTestServer((_req, res) => sendJson(res, 200, ok('{"operateRecordId":1}')));
    for (const request of [
      () =>
        issuing().request(operate, { cardId: "1", type: "FREEZE" }, { idempotencyKey: undefined }),
      () => payout().request(signedQuery, { requestId: "r1" }, { idempotencyKey: undefined }),
    ]) {
      const err = await request().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isRequestValidationError(err)).toBe(true);
      expect(err).toMatchObject({ field: "idempotencyKey" });
      expect((err as Error).message).toContain("error.idempotencyKey");
      expect((err as Error).message).toContain("leave the option out");
    }
    expect(server.requests).toHaveLength(0);
    // Left out, a key is generated as before.
    await issuing().request(operate, { cardId: "1", type: "FREEZE" }, {});
    expect(JSON.parse(server.requests[0]?.body ?? "{}").clientRequestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("refuses the params' key field given as undefined or null, sending nothing", async () => {
    // `{ ...params, clientRequestId: saved.key }` with the key lost is the same mistake as
    // `{ idempotencyKey: undefined }`: a fresh key would do the write a second time.
    server = await startTestServer((_req, res) => sendJson(res, 200, ok('{"operateRecordId":1}')));
    for (const unset of [undefined, null]) {
      for (const request of [
        () =>
          issuing().request(operate, {
            cardId: "1",
            type: "FREEZE",
            clientRequestId: unset as unknown as string,
          }),
        // Also when options carry a key: the params' field still names none.
        () =>
          issuing().request(
            operate,
            { cardId: "1", type: "FREEZE", clientRequestId: unset as unknown as string },
            { idempotencyKey: "order-42" },
          ),
      ]) {
        const err = await request().then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(isRequestValidationError(err)).toBe(true);
        expect(err).toMatchObject({ field: "clientRequestId", path: "/card/operate" });
        expect((err as Error).message).toContain("leave the field out");
      }
      // options.idempotencyKey null is refused like undefined.
      const err = await issuing()
        .request(
          operate,
          { cardId: "1", type: "FREEZE" },
          { idempotencyKey: unset as unknown as string },
        )
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(err).toMatchObject({ field: "idempotencyKey" });
    }
    expect(server.requests).toHaveLength(0);
    // Left out, a key is generated as before.
    await issuing().request(operate, { cardId: "1", type: "FREEZE" });
    expect(JSON.parse(server.requests[0]?.body ?? "{}").clientRequestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("refuses a blank idempotency key, in the option or the params' field, sending nothing", async () => {
    server = await startTestServer((_req, res) => sendJson(res, 200, ok('{"operateRecordId":1}')));
    for (const blank of ["", "   "]) {
      for (const [request, field] of [
        [
          () =>
            issuing().request(operate, { cardId: "1", type: "FREEZE" }, { idempotencyKey: blank }),
          "idempotencyKey",
        ],
        [
          () => issuing().request(operate, { cardId: "1", type: "FREEZE", clientRequestId: blank }),
          "clientRequestId",
        ],
      ] as const) {
        const err = await request().then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(isRequestValidationError(err)).toBe(true);
        expect(err).toMatchObject({ field, path: "/card/operate" });
        expect((err as Error).message).toContain("must not be blank");
      }
    }
    expect(server.requests).toHaveLength(0);
  });

  it("uses the caller's idempotency key and refuses two different ones", async () => {
    server = await startTestServer((_req, res) => sendJson(res, 200, ok('{"operateRecordId":1}')));
    await issuing().request(
      operate,
      { cardId: "1", type: "FREEZE" },
      { idempotencyKey: "order-42" },
    );
    expect(JSON.parse(server.requests[0]?.body ?? "{}").clientRequestId).toBe("order-42");
    const err = await issuing()
      .request(
        operate,
        { cardId: "1", type: "FREEZE", clientRequestId: "a" },
        { idempotencyKey: "b" },
      )
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(isRequestValidationError(err)).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it("retries a dropped connection on a keyed write and reports a ConnectionError when it persists", async () => {
    server = await startTestServer((_req, res) => {
      res.socket?.destroy();
    });
    const retries: number[] = [];
    const err = await issuing({ maxRetries: 2, hooks: { onRetry: (e) => retries.push(e.attempt) } })
      .request(operate, { cardId: "1", type: "FREEZE" })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(isConnectionError(err)).toBe(true);
    expect(retries).toEqual([1, 2]);
    expect(server.requests).toHaveLength(3);
  });

  it("stops a write the caller aborts once sent with an AbortedError carrying the key that was sent", async () => {
    const controller = new AbortController();
    const reason = new Error("user cancelled");
    // Aborted once the service has the request (not after a fixed time a loaded machine may miss).
    server = await startTestServer(async (_req, res) => {
      controller.abort(reason);
      await new Promise((r) => setTimeout(r, 300));
      sendJson(res, 200, ok('{"operateRecordId":1}'));
    });
    const pending = issuing().request(
      operate,
      { cardId: "1", type: "FREEZE" },
      { signal: controller.signal },
    );
    const err = await pending.then(
      () => undefined,
      (e: unknown) => e,
    );
    // The SDK minted the key: without it the caller could neither look the freeze up nor repeat it.
    const sent = (parseJson(server.requests[0]?.body ?? "") as { clientRequestId: string })
      .clientRequestId;
    expect(isAbortedError(err)).toBe(true);
    expect(err).toMatchObject({ name: "AbortError", idempotencyKey: sent, cause: reason });
    expect(String((err as Error).message)).toContain(sent);
    expect(isConnectionError(err)).toBe(false); // not one to retry on its own: the caller stopped it
  });

  it("stops an unkeyed write the caller aborts once sent with an AbortedError too, without a key", async () => {
    const controller = new AbortController();
    const reason = new Error("user cancelled");
    server = await startTestServer(async (_req, res) => {
      controller.abort(reason);
      await new Promise((r) => setTimeout(r, 300));
      sendJson(res, 200, ok('{"beneficiaryId":1}'));
    });
    const err = await payout()
      .request(
        addBeneficiary,
        { merchantRefId: "u1", accountInfomation: "{}" },
        { signal: controller.signal },
      )
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    // beneficiary/add takes no key: it may still have reached the service, and the caller must
    // not take it for a call that never left (which is what the bare reason says).
    expect(server.requests).toHaveLength(1);
    expect(isAbortedError(err)).toBe(true);
    expect(err).toMatchObject({
      name: "AbortError",
      cause: reason,
      path: "/api/v1/beneficiary/add",
    });
    expect((err as { idempotencyKey?: string }).idempotencyKey).toBeUndefined();
    expect((err as Error).message).toContain("may have reached the service");
    expect((err as Error).message).toContain("takes no idempotency key");
    expect(isConnectionError(err)).toBe(false);
    // Aborted before anything was sent, it still rejects with the reason itself.
    await expect(
      payout().request(
        addBeneficiary,
        { merchantRefId: "u1", accountInfomation: "{}" },
        { signal: controller.signal },
      ),
    ).rejects.toBe(reason);
    expect(server.requests).toHaveLength(1);
  });

  it("rejects a read the caller aborts, and a write aborted before it is sent, with the abort reason itself", async () => {
    const controller = new AbortController();
    const reason = new Error("user cancelled");
    server = await startTestServer(async (_req, res) => {
      controller.abort(reason);
      await new Promise((r) => setTimeout(r, 300));
      sendJson(res, 200, ok('{"list":[]}'));
    });
    const read = new Transport({
      environment: { origin: server.url },
      auth: accountApiKeyAuth({ apiKey: "acct-key" }),
    }).request(accountQuery, { serviceIds: ["1"] }, { signal: controller.signal });
    await expect(read).rejects.toBe(reason);
    await expect(
      issuing().request(operate, { cardId: "1", type: "FREEZE" }, { signal: controller.signal }),
    ).rejects.toBe(reason);
    expect(server.requests).toHaveLength(1);
  });

  it("keeps secrets, signs and card data out of every log line and event", async () => {
    server = await startTestServer((_req, res, i) =>
      i === 0
        ? sendJson(res, 500, '{"respCode":"80000","respMsg":"internal"}')
        : sendJson(
            res,
            200,
            ok('{"beneficiaryId":1,"sign":"f00dfeed","cardNumber":"4000123412341234"}'),
          ),
    );
    const lines: string[] = [];
    const logger = {
      debug: (m: string, f: Record<string, unknown>) => lines.push(`${m} ${JSON.stringify(f)}`),
      warn: (m: string, f: Record<string, unknown>) => lines.push(`${m} ${JSON.stringify(f)}`),
    };
    const events: string[] = [];
    const hooks = {
      onRequest: (e: unknown) => events.push(JSON.stringify(e)),
      onResponse: (e: unknown) => events.push(JSON.stringify(e)),
    };
    const unsignedWrite = defineEndpoint({ ...addBeneficiary, kind: "read" }); // retried, so both paths log
    const transport = new Transport({
      environment: { origin: server.url },
      auth: signAuth({ secretKey: "TOPSECRETKEY" }),
      merchantNo: "M100",
      retryDelay: fast,
      logger,
      hooks,
      includeBodies: true,
    });
    await transport.request(unsignedWrite, {
      merchantRefId: "u1",
      accountInfomation: JSON.stringify({ cardNumber: "6222021234567890123", accountType: "1" }),
    });
    const sentSign = (JSON.parse(server.requests[0]?.body ?? "{}") as { sign: string }).sign;
    const all = [...lines, ...events].join("\n");
    expect(lines.length).toBeGreaterThanOrEqual(5);
    expect(all).toContain("merchantRefId"); // bodies are there...
    for (const secret of [
      "TOPSECRETKEY",
      sentSign,
      "6222021234567890123",
      "f00dfeed",
      "4000123412341234",
    ]) {
      expect(all).not.toContain(secret); // ...but none of these
    }
  });

  it("blanks the request's own credentials in event and log bodies, as the error does", async () => {
    // A gateway that quotes the key it refused (or the secret it signed with) back.
    server = await startTestServer((req, res, i) => {
      const echoed = String(req.headers.apikey ?? "TOPSECRETKEY");
      if (i % 2 === 0)
        return sendJson(
          res,
          200,
          JSON.stringify({ respCode: "40000", respMsg: `invalid key ${echoed}`, data: null }),
        );
      sendJson(res, 200, ok(JSON.stringify({ operateRecordId: 1, requestId: "q", note: echoed })));
    });
    const lines: string[] = [];
    const logger = {
      debug: (m: string, f: Record<string, unknown>) => lines.push(`${m} ${JSON.stringify(f)}`),
    };
    const hooks = {
      onRequest: (e: unknown) => lines.push(JSON.stringify(e)),
      onResponse: (e: unknown) => lines.push(JSON.stringify(e)),
    };
    const observed = { logger, hooks, includeBodies: true, maxRetries: 0 };
    const apiKeyed = issuing(observed);
    const signed = new Transport({
      environment: { origin: server.url },
      auth: signAuth({ secretKey: "TOPSECRETKEY" }),
      merchantNo: "M100",
      ...observed,
    });
    // Each client: a refusal quoting the credential, then a success whose data echoes it.
    const refusals = [
      await apiKeyed.request(operate, { cardId: "1", type: "FREEZE" }).catch((e: unknown) => e),
      await apiKeyed.request(operate, { cardId: "1", type: "FREEZE" }).then(() => undefined),
      await signed.request(signedQuery, { requestId: "q" }).catch((e: unknown) => e),
      await signed.request(signedQuery, { requestId: "q" }).then(() => undefined),
    ];
    expect((refusals[0] as Error).message).toContain("invalid key [REDACTED]");
    expect((refusals[2] as Error).message).toContain("invalid key [REDACTED]");
    const all = lines.join("\n");
    expect(all).toContain("invalid key [REDACTED]");
    expect(all).not.toContain("issuing-key-SECRET");
    expect(all).not.toContain("TOPSECRETKEY");
  });

  it("drops the rejection of an async hook or logger: it neither fails the call nor goes unhandled", async () => {
    server = await startTestServer((_req, res) => sendJson(res, 200, ok('{"operateRecordId":1}')));
    // vitest's own listener would fail the run on an unhandled rejection; collect them instead.
    const unhandled: unknown[] = [];
    const collect = (reason: unknown) => unhandled.push(reason);
    const saved = process.listeners("unhandledRejection");
    process.removeAllListeners("unhandledRejection");
    process.on("unhandledRejection", collect);
    try {
      // `(event) => void` accepts an async function: telemetry senders often are.
      const data = await issuing({
        hooks: { onResponse: async () => Promise.reject(new Error("telemetry down")) },
        logger: { debug: async () => Promise.reject(new Error("log sink down")) },
      }).request(operate, { cardId: "1", type: "FREEZE" });
      expect(data.operateRecordId).toBe("1");
      await new Promise((r) => setTimeout(r, 50));
    } finally {
      process.off("unhandledRejection", collect);
      for (const listener of saved) process.on("unhandledRejection", listener);
    }
    expect(unhandled).toEqual([]);
  });

  it("recognises errors from another copy of core", async () => {
    vi.resetModules();
    const copy = await import("../errors/api-error");
    const foreign = new copy.InsufficientBalanceError({ message: "x", httpStatus: 200 });
    expect(foreign instanceof InsufficientBalanceError).toBe(false);
    expect(isInsufficientBalanceError(foreign)).toBe(true);
    expect(isApiError(foreign)).toBe(true);
    expect(isServerError(foreign)).toBe(false);
  });
});

// What each attempt reads off the wire (attempt-fetch.ts, under ky): the whole body under the
// timeout, UTF-8 decoded whole, and failures as core errors naming the key that was sent.
describe("Transport on the wire", () => {
  it("sends headers and the UTF-8 body, and decodes a character split across chunks", async () => {
    server = await startTestServer(async (req, res) => {
      res.writeHead(200, { "x-request-id": "r-1", "content-type": "application/json" });
      // "€" is three bytes; split it across two writes to prove the text is decoded whole.
      const reply = Buffer.from(
        ok(
          `{"operateRecordId":1,"got":${req.body},"price":"5€","key":"${req.headers.apikey}",` +
            `"length":"${req.headers["content-length"]}"}`,
        ),
      );
      const cut = reply.indexOf(Buffer.from("€")) + 1;
      res.write(reply.subarray(0, cut));
      setTimeout(() => res.end(reply.subarray(cut)), 10);
    });
    const { data, response } = await issuing()
      .request(operate, { cardId: "1", type: "FREEZE" }, { idempotencyKey: "k-1" })
      .withResponse();
    const sentText = '{"clientRequestId":"k-1","cardId":1,"type":"FREEZE"}';
    expect(data).toMatchObject({ price: "5€", key: "issuing-key-SECRET" });
    expect(data).toMatchObject({ got: { clientRequestId: "k-1", type: "FREEZE" } });
    expect(data).toMatchObject({ length: String(Buffer.byteLength(sentText)) });
    expect(response.requestId).toBe("r-1");
  });

  it("hands a custom fetch the Request with its body and the same text as init.body, on every attempt", async () => {
    server = await startTestServer((_req, res, i) => {
      if (i === 0) return sendJson(res, 503, '{"respCode":"50300","respMsg":"busy"}');
      sendJson(res, 200, ok('{"operateRecordId":1}'));
    });
    const seen: { request: string; init: unknown }[] = [];
    const transport = issuing({
      fetch: async (input, init) => {
        seen.push({ request: await (input as Request).clone().text(), init: init?.body });
        return fetch(input, init);
      },
    });
    await transport.request(operate, { cardId: "1", type: "FREEZE" }, { idempotencyKey: "k-f" });
    const sentText = '{"clientRequestId":"k-f","cardId":1,"type":"FREEZE"}';
    expect(seen).toEqual([
      { request: sentText, init: sentText },
      { request: sentText, init: sentText },
    ]);
    expect(server.requests.map((r) => r.body)).toEqual([sentText, sentText]);
  });

  it("hands a custom fetch a signed call's Request carrying the signed body, on every attempt", async () => {
    server = await startTestServer((_req, res, i) => {
      if (i === 0) return sendJson(res, 503, '{"respCode":"50300","respMsg":"busy"}');
      sendJson(res, 200, ok('{"requestId":"q-1"}'));
    });
    const seen: { request: string; init: unknown }[] = [];
    const transport = new Transport({
      environment: { origin: server.url },
      auth: signAuth({ secretKey: "s3cret" }),
      merchantNo: "M100",
      retryDelay: fast,
      fetch: async (input, init) => {
        seen.push({ request: await (input as Request).clone().text(), init: init?.body });
        return fetch(input, init);
      },
    });
    await transport.request(signedQuery, { requestId: "q-1" });
    const sentText = server.requests[0]?.body ?? "";
    expect(await verifySign(parseJson(sentText) as Record<string, unknown>, "s3cret")).toBe(true);
    expect(seen).toEqual([
      { request: sentText, init: sentText },
      { request: sentText, init: sentText },
    ]);
    expect(server.requests.map((r) => r.body)).toEqual([sentText, sentText]);
  });

  it("fails a call whose sign cannot be computed with that error, sending nothing", async () => {
    server = await startTestServer((_req, res) => sendJson(res, 200, ok('{"requestId":"q"}')));
    const transport = (throttle?: () => Promise<void>) =>
      new Transport({
        environment: { origin: server?.url ?? "" },
        auth: signAuth({ secretKey: "s3cret" }),
        merchantNo: "M100",
        throttle,
      });
    const params = { requestId: "q-2", rate: Number.POSITIVE_INFINITY };
    const err = await transport()
      .request(signedQuery, params)
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(TypeError);
    expect(String(err)).toContain("rate");
    expect(isConnectionError(err)).toBe(false);
    // The attempt never starts: the throttle's error is the call's, and the sign's failure is
    // not left as an unhandled rejection (vitest fails the run on one).
    const throttled = transport(() => Promise.reject(new Error("throttle closed")));
    await expect(throttled.request(signedQuery, params)).rejects.toThrow("throttle closed");
    // With bodies in the events, the sign is awaited in ky's beforeRequest hook instead: the
    // same error, not retried, nothing sent.
    const logged = new Transport({
      environment: { origin: server.url },
      auth: signAuth({ secretKey: "s3cret" }),
      merchantNo: "M100",
      retryDelay: fast,
      logger: { debug: () => {}, warn: () => {} },
      includeBodies: true,
    });
    const loggedErr = await logged.request(signedQuery, params).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(loggedErr).toBeInstanceOf(TypeError);
    expect(String(loggedErr)).toContain("rate");
    expect(isConnectionError(loggedErr)).toBe(false);
    expect(server.requests).toHaveLength(0);
  });

  it("times out over the whole body, not only until the headers, naming the key", async () => {
    server = await startTestServer(async (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"respCode":');
      await new Promise((r) => setTimeout(r, 400));
      res.end('"20000"}');
    });
    const err = await issuing({ timeoutMs: 100, maxRetries: 0 })
      .request(operate, { cardId: "1", type: "FREEZE" }, { idempotencyKey: "k-2" })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(isTimeoutError(err)).toBe(true);
    expect(err).toMatchObject({ idempotencyKey: "k-2", path: "/card/operate", timeoutMs: 100 });
  });

  it("does not follow a redirect: the 3xx is the answer, and nothing is sent elsewhere", async () => {
    server = await startTestServer((req, res) => {
      if (req.path !== "/api/v1/merchant/card/operate") return sendJson(res, 200, ok("{}"));
      res.writeHead(302, { location: "/elsewhere" });
      res.end();
    });
    const err = await issuing()
      .request(operate, { cardId: "1", type: "FREEZE" }, { idempotencyKey: "k-4" })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(isApiError(err)).toBe(true);
    expect(err).toMatchObject({ httpStatus: 302, idempotencyKey: "k-4" });
    expect(server.requests.map((r) => r.path)).toEqual(["/api/v1/merchant/card/operate"]);
  });

  it("names the system code and the key when the connection is refused", async () => {
    server = await startTestServer((_req, res) => sendJson(res, 200, "{}"));
    const origin = server.url;
    await server.close();
    server = undefined;
    const err = await issuing({ environment: { origin } })
      .request(operate, { cardId: "1", type: "FREEZE" }, { idempotencyKey: "k-3" })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(isConnectionError(err)).toBe(true);
    expect(isTimeoutError(err)).toBe(false);
    expect(err).toMatchObject({ code: "ECONNREFUSED", idempotencyKey: "k-3" });
  });
});

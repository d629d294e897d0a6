// What each attempt reads off the wire, through the Transport and ky against a real server:
// the whole body under the timeout, UTF-8 decoded whole, and failures as core errors that name
// the idempotency key that was sent.
import * as v from "valibot";
import { afterEach, describe, expect, it } from "vitest";
import { isConnectionError, isTimeoutError } from "../errors/local-errors";
import { sendJson, startTestServer, type TestServer } from "../testing/test-server";
import { issuingApiKeyAuth } from "./auth";
import { defineEndpoint } from "./endpoint";
import { Transport } from "./transport";

const echo = defineEndpoint({
  area: "issuing",
  path: "/card/echo",
  auth: "issuingApiKey",
  kind: "write",
  idempotencyKey: { field: "clientRequestId", maxLength: 64 },
  request: v.object({ clientRequestId: v.string(), name: v.string() }),
  response: v.looseObject({ got: v.unknown(), price: v.string(), length: v.string() }),
});

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const client = (extra: Partial<ConstructorParameters<typeof Transport>[0]> = {}) =>
  new Transport({
    environment: { origin: server?.url ?? "" },
    auth: issuingApiKeyAuth({ apiKey: "k" }),
    retryDelay: { baseDelayMs: 1, maxDelayMs: 2 },
    ...extra,
  });

const failure = (p: PromiseLike<unknown>) =>
  Promise.resolve(p).then(
    () => undefined,
    (e: unknown) => e,
  );

describe("attempt-fetch", () => {
  it("sends headers and the UTF-8 body, and decodes a character split across chunks", async () => {
    server = await startTestServer(async (req, res) => {
      res.writeHead(200, { "x-request-id": "r-1", "content-type": "application/json" });
      // "€" is three bytes; split it across two writes to prove the text is decoded whole.
      const reply = Buffer.from(
        `{"respCode":"20000","respMsg":"ok","data":{"got":${req.body},"price":"5€",` +
          `"length":"${req.headers["content-length"]}","key":"${req.headers.apikey}"}}`,
      );
      const cut = reply.indexOf(Buffer.from("€")) + 1;
      res.write(reply.subarray(0, cut));
      setTimeout(() => res.end(reply.subarray(cut)), 10);
    });
    const { data, response } = await client()
      .request(echo, { name: "Zoë" }, { idempotencyKey: "k-1" })
      .withResponse();
    expect(data.price).toBe("5€");
    expect(data.got).toEqual({ clientRequestId: "k-1", name: "Zoë" });
    expect(data).toMatchObject({ key: "k" });
    expect(data.length).toBe(String(Buffer.byteLength('{"clientRequestId":"k-1","name":"Zoë"}')));
    expect(response.requestId).toBe("r-1");
  });

  it("times out over the whole body, not only until the headers, naming the key", async () => {
    server = await startTestServer(async (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"respCode":');
      await new Promise((r) => setTimeout(r, 400));
      res.end('"20000"}');
    });
    const err = await failure(
      client({ timeoutMs: 100, maxRetries: 0 }).request(
        echo,
        { name: "x" },
        { idempotencyKey: "k-2" },
      ),
    );
    expect(isTimeoutError(err)).toBe(true);
    expect(err).toMatchObject({ idempotencyKey: "k-2", path: "/card/echo", timeoutMs: 100 });
  });

  it("names the system code and the key when the connection is refused", async () => {
    server = await startTestServer((_req, res) => sendJson(res, 200, "{}"));
    const origin = server.url;
    await server.close();
    server = undefined;
    const err = await failure(
      new Transport({
        environment: { origin },
        auth: issuingApiKeyAuth({ apiKey: "k" }),
        retryDelay: { baseDelayMs: 1, maxDelayMs: 2 },
      }).request(echo, { name: "x" }, { idempotencyKey: "k-3" }),
    );
    expect(isConnectionError(err)).toBe(true);
    expect(isTimeoutError(err)).toBe(false);
    expect(err).toMatchObject({ code: "ECONNREFUSED", idempotencyKey: "k-3" });
  });
});

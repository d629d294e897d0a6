import { afterEach, describe, expect, it } from "vitest";
import { isConnectionError, isTimeoutError } from "../errors/local-errors";
import { startTestServer, type TestServer } from "../testing/test-server";
import { type HttpExchange, httpSender } from "./http-senders";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function exchange(extra: Partial<HttpExchange> = {}): HttpExchange {
  return {
    url: `${server?.url ?? ""}/echo`,
    body: '{"name":"Zoë"}',
    headers: new Headers({ "content-type": "application/json", ApiKey: "k" }),
    timeoutMs: 2_000,
    signal: undefined,
    path: "/echo",
    ...extra,
  };
}

const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );

// Both ways of sending must give the same answers and the same errors.
describe.each([
  ["node:http", httpSender(undefined)],
  ["fetch", httpSender(globalThis.fetch)],
])("%s sender", (_name, send) => {
  it("sends the headers and the UTF-8 body, and reads status, headers and text back", async () => {
    server = await startTestServer(async (req, res) => {
      res.writeHead(201, { "x-request-id": "r-1", "content-type": "application/json" });
      // "€" is three bytes; split it across two writes to prove the text is decoded whole.
      const reply = Buffer.from(
        `{"got":${req.body},"key":"${req.headers.apikey}","price":"5€",` +
          `"length":"${req.headers["content-length"]}"}`,
      );
      const cut = reply.indexOf(Buffer.from("€")) + 1;
      res.write(reply.subarray(0, cut));
      setTimeout(() => res.end(reply.subarray(cut)), 10);
    });
    const answer = await send(exchange());
    expect(answer.status).toBe(201);
    expect(answer.headers.get("x-request-id")).toBe("r-1");
    expect(JSON.parse(answer.text)).toEqual({
      got: { name: "Zoë" },
      key: "k",
      price: "5€",
      length: String(Buffer.byteLength('{"name":"Zoë"}')),
    });
  });

  it("times out over the whole body, not only until the headers", async () => {
    server = await startTestServer(async (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"respCode":');
      await new Promise((r) => setTimeout(r, 400));
      res.end('"20000"}');
    });
    const err = await failure(send(exchange({ timeoutMs: 100 })));
    expect(isTimeoutError(err)).toBe(true);
  });

  it("rejects with the caller's abort reason", async () => {
    server = await startTestServer(async (_req, res) => {
      await new Promise((r) => setTimeout(r, 300));
      res.end("{}");
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("user cancelled")), 20);
    await expect(send(exchange({ signal: controller.signal }))).rejects.toThrow("user cancelled");
  });

  it("names the system code when the connection is refused", async () => {
    server = await startTestServer((_req, res) => {
      res.end("{}");
    });
    const url = `${server.url}/echo`;
    await server.close();
    server = undefined;
    const err = await failure(send(exchange({ url })));
    expect(isConnectionError(err)).toBe(true);
    expect(isTimeoutError(err)).toBe(false);
    expect((err as { code?: string }).code).toBe("ECONNREFUSED");
  });
});

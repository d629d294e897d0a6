import { createHmac } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { IssuingWebhookEvent } from "./construct-issuing-event";
import { MemoryDedupeStore } from "./dedupe-store";
import { signIssuingWebhook } from "./sign-issuing-webhook";
import { createWebhookHandler, WebhookBodyTooLargeError } from "./webhook-handler";

const SECRET = Buffer.from("0123456789abcdef0123456789abcdef").toString("base64");

function event(requestId: string) {
  return `{"request_id":"${requestId}","event_type":"issuing.cardOperateEvent","created_at":"2027-01-15T08:00:00Z","data":{"operateRecordId":1953712585351499777,"cardId":1953712585351499778,"clientRequestId":"r-1","type":"FREEZE","status":"S"}}`;
}

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function serve(
  listener: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<string> {
  const server = createServer(listener);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  close = () => new Promise((r) => server.close(() => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function post(url: string, body: string, headers: Record<string, string>) {
  const res = await fetch(url, { method: "POST", body, headers });
  return { status: res.status, body: (await res.json()) as { respCode: string; respMsg: string } };
}

/** A handler whose bodies may be at most `maxBodyBytes`, and the errors it reports. */
function limitedHandler(maxBodyBytes: number) {
  const errors: unknown[] = [];
  const handler = createWebhookHandler({
    secret: SECRET,
    maxBodyBytes,
    onEvent: () => {},
    onError: (e) => void errors.push(e),
  });
  return { errors, handler };
}

/** A handler whose onEvent must not run, and the errors it reports to onError. */
function refusingHandler() {
  const errors: unknown[] = [];
  const handler = createWebhookHandler({
    secret: SECRET,
    onEvent: () => {
      throw new Error("must not run");
    },
    onError: (e) => void errors.push(e),
  });
  return { handler, errors };
}

describe("createWebhookHandler", () => {
  it("acknowledges a verified push once and skips a redelivery (fetch adapter)", async () => {
    const seen: IssuingWebhookEvent[] = [];
    const handler = createWebhookHandler({
      secret: SECRET,
      dedupe: new MemoryDedupeStore(),
      onEvent: (e) => void seen.push(e),
    });
    const signed = await signIssuingWebhook({ body: event("1953712585351499776"), secret: SECRET });
    for (let i = 0; i < 2; i++) {
      const res = await handler.fetch(
        new Request("http://x/hooks", {
          method: "POST",
          body: signed.body,
          headers: signed.headers,
        }),
      );
      expect(res.status).toBe(200);
      expect(((await res.json()) as { respCode: string }).respCode).toBe("20000");
    }
    expect(seen).toHaveLength(1);
    expect(seen[0]?.request_id).toBe("1953712585351499776");
  });

  it("answers non-20000 while onEvent fails, and runs it again on the retry (node:http adapter)", async () => {
    let calls = 0;
    const handler = createWebhookHandler({
      secret: SECRET,
      dedupe: new MemoryDedupeStore(),
      onEvent: () => {
        calls++;
        if (calls <= 3) throw new Error("database down");
      },
    });
    const url = await serve((req, res) => void handler.node(req, res));
    const signed = await signIssuingWebhook({ body: event("42"), secret: SECRET });
    const codes: string[] = [];
    for (let i = 0; i < 5; i++)
      codes.push((await post(url, signed.body, signed.headers)).body.respCode);
    expect(codes).toEqual(["50000", "50000", "50000", "20000", "20000"]);
    expect(calls).toBe(4);
  });

  it("answers every push when the dedupe store fails, and reports the failure (node:http adapter)", async () => {
    const reported: string[] = [];
    const handled: string[] = [];
    const failing = (step: string) => () => Promise.reject(new Error(`${step}: database lost`));
    const handler = (dedupe: Parameters<typeof createWebhookHandler>[0]["dedupe"]) =>
      createWebhookHandler({
        secret: SECRET,
        dedupe,
        onEvent: (e) => void handled.push(e.request_id),
        onError: (error) => void reported.push((error as Error).message),
      });
    const store = { claim: () => "claimed" as const, complete: () => {}, release: () => {} };
    // No claim: not handled, asked to retry. Claimed and handled but not recorded: acknowledged
    // (a retry would only find the id in flight). Never left without an answer.
    let current = handler({ ...store, claim: failing("claim") });
    const url = await serve((req, res) => void current.node(req, res));
    const first = await signIssuingWebhook({ body: event("7"), secret: SECRET });
    expect((await post(url, first.body, first.headers)).status).toBe(500);
    current = handler({ ...store, complete: failing("complete") });
    const second = await signIssuingWebhook({ body: event("8"), secret: SECRET });
    expect((await post(url, second.body, second.headers)).body.respCode).toBe("20000");
    expect(handled).toEqual(["8"]);
    expect(reported).toEqual(["claim: database lost", "complete: database lost"]);
  });

  it("rejects a bad signature with 401 and reports it", async () => {
    const errors: unknown[] = [];
    const handler = createWebhookHandler({
      secret: SECRET,
      onEvent: () => {},
      onError: (e) => errors.push(e),
    });
    const url = await serve((req, res) => void handler.node(req, res));
    const signed = await signIssuingWebhook({ body: event("1"), secret: SECRET });
    const res = await post(url, signed.body.replace("FREEZE", "UNFREEZE"), signed.headers);
    expect(res.status).toBe(401);
    expect(res.body.respCode).not.toBe("20000");
    expect(errors).toHaveLength(1);
  });

  it("answers a body that is not UTF-8 400, not 401, and reports why", async () => {
    const errors: unknown[] = [];
    const handler = createWebhookHandler({
      secret: SECRET,
      onEvent: () => {},
      onError: (e) => errors.push(e),
    });
    // Signed over the bytes as sent, an "é" in Latin-1 (0xE9) among them.
    const bytes = Buffer.from(event("1").replace("FREEZE", "FREEZE\u00e9"), "latin1");
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = createHmac("sha256", Buffer.from(SECRET, "base64"))
      .update(Buffer.concat([Buffer.from(`${timestamp}.`), bytes]))
      .digest("hex");
    const res = await handler.handle({
      rawBody: bytes,
      headers: { "x-timestamp": timestamp, "x-signature": signature },
    });
    expect(res).toEqual({
      status: 400,
      body: { respCode: "40000", respMsg: "body is not valid UTF-8" },
    });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ name: "SignatureError", reason: "not_utf8" });
  });

  it("answers a body over the limit 413 and closes cleanly, on node:http and fetch", async () => {
    const { errors, handler } = limitedHandler(1024);
    const url = await serve((req, res) => void handler.node(req, res));
    const big = "x".repeat(2 * 1024 * 1024);
    const res = await post(url, big, { "content-type": "application/json" });
    expect(res.status).toBe(413);
    expect(res.body.respMsg).toBe("body is over the 1024-byte limit");
    const viaFetch = await handler.fetch(new Request("http://x/", { method: "POST", body: big }));
    expect(viaFetch.status).toBe(413);
    expect(errors).toHaveLength(2);
    expect(errors.every((e) => e instanceof WebhookBodyTooLargeError)).toBe(true);
    // The server is still there for the next push.
    const signed = await signIssuingWebhook({ body: event("1953712585351499790"), secret: SECRET });
    expect((await post(url, signed.body, signed.headers)).status).toBe(200);
  });

  it("fetch: stops reading a chunked body once it passes the limit and cancels the rest", async () => {
    const { errors, handler } = limitedHandler(1024);
    // 1000 chunks of 256 bytes, no content-length: only as many as pass the limit are pulled.
    let pulled = 0;
    let cancelled: unknown = "not cancelled";
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          if (pulled === 1000) return controller.close();
          pulled++;
          controller.enqueue(new Uint8Array(256).fill(0x20));
        },
        cancel(reason) {
          cancelled = reason;
        },
      },
      { highWaterMark: 0 },
    );
    const request = new Request("http://x/", {
      method: "POST",
      body,
      duplex: "half",
    } as RequestInit);
    expect(request.headers.get("content-length")).toBeNull();
    const res = await handler.fetch(request);
    expect(res.status).toBe(413);
    expect(res.headers.get("connection")).toBe("close");
    expect(pulled).toBeLessThanOrEqual(6); // 5 chunks pass 1024 bytes; the stream may pull one ahead
    expect(cancelled).toBeInstanceOf(WebhookBodyTooLargeError);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(WebhookBodyTooLargeError);
  });

  it("fetch: verifies a chunked body of exactly the limit byte for byte", async () => {
    const seen: IssuingWebhookEvent[] = [];
    const signed = await signIssuingWebhook({ body: event("1953712585351499792"), secret: SECRET });
    const bytes = new TextEncoder().encode(signed.body);
    const handler = createWebhookHandler({
      secret: SECRET,
      maxBodyBytes: bytes.length,
      onEvent: (e) => void seen.push(e),
    });
    let offset = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (offset >= bytes.length) return controller.close();
        controller.enqueue(bytes.slice(offset, offset + 7));
        offset += 7;
      },
    });
    const res = await handler.fetch(
      new Request("http://x/", {
        method: "POST",
        body,
        headers: signed.headers,
        duplex: "half",
      } as RequestInit),
    );
    expect(res.status).toBe(200);
    expect(seen[0]?.request_id).toBe("1953712585351499792");
  });

  it("answers a payload the contract refuses 400, naming the field and rule but not the value", async () => {
    const { handler, errors } = refusingHandler();
    const body = event("1953712585351499791").replace(
      "1953712585351499778",
      '"4111111111111111abc"',
    );
    const signed = await signIssuingWebhook({ body, secret: SECRET });
    const res = await handler.fetch(
      new Request("http://x/", { method: "POST", body: signed.body, headers: signed.headers }),
    );
    expect(res.status).toBe(400);
    const { respMsg } = (await res.json()) as { respMsg: string };
    expect(respMsg).toMatch(/^payload does not match the contract: data\.cardId: /);
    expect(respMsg).not.toContain("4111111111111111");
    expect(errors).toHaveLength(1);
  });

  it("acknowledges a body handed over as an ArrayBuffer (await request.arrayBuffer())", async () => {
    const seen: IssuingWebhookEvent[] = [];
    const errors: unknown[] = [];
    const handler = createWebhookHandler({
      secret: SECRET,
      onEvent: (e) => void seen.push(e),
      onError: (e) => void errors.push(e),
    });
    const signed = await signIssuingWebhook({ body: event("1953712585351499793"), secret: SECRET });
    const request = new Request("http://x/", { method: "POST", body: signed.body });
    const res = await handler.handle({
      rawBody: await request.arrayBuffer(),
      headers: signed.headers,
    });
    expect(res).toEqual({ status: 200, body: { respCode: "20000", respMsg: "success" } });
    expect(seen[0]?.request_id).toBe("1953712585351499793");
    expect(errors).toEqual([]);
  });

  it("fetch: a Request whose body was already read is answered 500 40100 and onError told parsed_body", async () => {
    const { handler, errors } = refusingHandler();
    const signed = await signIssuingWebhook({ body: event("1953712585351499794"), secret: SECRET });
    const request = new Request("http://x/", {
      method: "POST",
      body: signed.body,
      headers: signed.headers,
    });
    await request.json(); // a middleware read it first
    const res = await handler.fetch(request);
    expect(res.status).toBe(500);
    const answer = (await res.json()) as { respCode: string; respMsg: string };
    expect(answer.respCode).toBe("40100");
    expect(answer.respMsg).toMatch(/raw request body|already read/);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ name: "SignatureError", reason: "parsed_body" });
    // As node-style handle() answers a body a JSON parser already turned into an object.
    const viaHandle = await handler.handle({
      rawBody: JSON.parse(signed.body),
      headers: signed.headers,
    });
    expect(viaHandle.status).toBe(res.status);
    expect(viaHandle.body.respCode).toBe(answer.respCode);
  });

  it("fetch: a body whose stream fails is answered 400 and retried, like node:http's", async () => {
    const errors: unknown[] = [];
    const handler = createWebhookHandler({
      secret: SECRET,
      onEvent: () => {},
      onError: (e) => void errors.push(e),
    });
    const broken = new Error("connection reset");
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"request_id":'));
      },
      pull(controller) {
        controller.error(broken);
      },
    });
    const res = await handler.fetch(
      new Request("http://x/", { method: "POST", body, duplex: "half" } as RequestInit),
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ respCode: "50000", respMsg: "body could not be read" });
    expect(errors).toEqual([broken]);
  });

  it("acknowledges a signed push whose values break only limits made for requests", async () => {
    // The service's data, read as a query answer is: text past 256 characters and an amount
    // written as Java's BigDecimal prints 100 would be refused 400, retried ~10 times and lost.
    const seen: IssuingWebhookEvent[] = [];
    const handler = createWebhookHandler({ secret: SECRET, onEvent: (e) => void seen.push(e) });
    const body = `{"request_id":"1953712585351499795","event_type":"issuing.cardTransactionEvent","created_at":"2027-01-15T08:00:00Z","version":"1.0","data":{"txnType":"CLEARING","txnStatus":"S","txnOrderNo":"T000000000000001","cardId":1953712585351499777,"transactionAmount":100.00,"transactionCurrency":"USD","cardAmount":1E+2,"cardCurrency":"USD","merchantName":"${"A".repeat(300)}"}}`;
    const signed = await signIssuingWebhook({ body, secret: SECRET });
    const res = await handler.handle({ rawBody: signed.body, headers: signed.headers });
    expect(res.body.respMsg).toBe("success");
    expect(res.status).toBe(200);
    const [pushed] = seen;
    if (pushed?.kind !== "cardTransaction") throw new Error("not delivered");
    expect(pushed.data.cardAmount).toBe("100");
    expect(pushed.data.merchantName).toHaveLength(300);
  });

  it("asks a concurrent duplicate to retry while the first delivery is in flight", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let entered: () => void = () => {};
    const inFlight = new Promise<void>((r) => {
      entered = r;
    });
    const handler = createWebhookHandler({
      secret: SECRET,
      dedupe: new MemoryDedupeStore(),
      onEvent: () => {
        entered();
        return gate;
      },
    });
    const signed = await signIssuingWebhook({ body: event("7"), secret: SECRET });
    const first = handler.handle({ rawBody: signed.body, headers: signed.headers });
    // The second only once the first holds the claim: both verify their signature
    // asynchronously, and the second could otherwise claim first and wait on the gate forever.
    await inFlight;
    const second = await handler.handle({ rawBody: signed.body, headers: signed.headers });
    expect(second.status).toBe(409);
    release();
    expect((await first).body.respCode).toBe("20000");
  });

  it("Express: reads the raw body itself, uses a Buffer from express.raw, refuses an object from express.json", async () => {
    const handler = createWebhookHandler({ secret: SECRET, onEvent: () => {} });
    const signed = await signIssuingWebhook({ body: event("8"), secret: SECRET });
    let mode: "stream" | "raw" | "json" = "stream";
    const url = await serve((req, res) => {
      const r = req as IncomingMessage & { body?: unknown };
      const next = (e?: unknown) => {
        res.statusCode = 599;
        res.end(String(e));
      };
      if (mode === "stream") return handler.express(r, res, next);
      // Simulate a body parser that ran before the middleware.
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const buf = Buffer.concat(chunks);
        r.body = mode === "raw" ? buf : JSON.parse(buf.toString("utf8"));
        handler.express(r, res, next);
      });
    });
    expect((await post(url, signed.body, signed.headers)).body.respCode).toBe("20000");
    mode = "raw";
    expect((await post(url, signed.body, signed.headers)).body.respCode).toBe("20000");
    mode = "json";
    const parsed = await post(url, signed.body, signed.headers);
    expect(parsed.status).toBe(500);
    expect(parsed.body.respMsg).toMatch(/raw request body/);
  });
});

describe("MemoryDedupeStore", () => {
  it("forgets the oldest ids beyond its bound", () => {
    const store = new MemoryDedupeStore({ max: 2 });
    for (const id of ["a", "b", "c"]) {
      expect(store.claim(id)).toBe("claimed");
      store.complete(id);
    }
    expect(store.claim("a")).toBe("claimed"); // evicted
    expect(store.claim("c")).toBe("completed");
    expect(store.claim("a")).toBe("in_flight");
    store.release("a");
    expect(store.claim("a")).toBe("claimed");
  });
});

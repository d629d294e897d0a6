import { inspect } from "node:util";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  IssuingClient,
  type IssuingClientOptions,
  isAuthenticationError,
  isConfigurationError,
  isPermissionError,
} from "./index";
import { PREFIX, PRODUCTS, type TestBed, testBed } from "./testing/sandbox";

let bed: TestBed;

beforeAll(async () => {
  bed = await testBed();
});
afterAll(() => bed.close());
beforeEach(async () => {
  await bed.sandbox.admin.clearFaults();
  await bed.sandbox.admin.clearRequests();
});

describe("new IssuingClient", () => {
  it("refuses a missing apiKey, a bad merchantNo or environment at construction", () => {
    const environment = { origin: "http://127.0.0.1:1" };
    const bad: unknown[] = [
      { environment },
      { environment, apiKey: "" },
      { environment, apiKey: "k", merchantNo: "" },
      { apiKey: "k" },
      { environment: { origin: "ftp://x" }, apiKey: "k" },
      { environment: { payout: "http://127.0.0.1:1" }, apiKey: "k" },
      null,
    ];
    for (const options of bad) {
      let error: unknown;
      try {
        new IssuingClient(options as IssuingClientOptions);
      } catch (e) {
        error = e;
      }
      expect(isConfigurationError(error)).toBe(true);
    }
    expect(new IssuingClient({ environment: "production", apiKey: "k" })).toBeInstanceOf(
      IssuingClient,
    );
  });

  it("refuses an ApiKey a header cannot carry at construction, without quoting it", () => {
    // Before, the client was built and the first request failed with fetch's untyped
    // TypeError: Headers.set: "<the whole key>" is an invalid header value.
    const environment = { origin: "http://127.0.0.1:1" };
    for (const apiKey of ["sandbox-issuing-api-key\u2713", "sandbox-issuing-api-key\nX", "  "]) {
      let error: unknown;
      try {
        new IssuingClient({ environment, apiKey });
      } catch (e) {
        error = e;
      }
      expect(isConfigurationError(error)).toBe(true);
      expect((error as Error).message).toMatch(/^apiKey /);
      expect((error as Error).message).not.toContain("sandbox-issuing-api-key");
    }
  });
});

describe("what an error shows", () => {
  it("never the ApiKey an answer echoes, nor a card number in its text", async () => {
    const apiKey = "sandbox-issuing-api-key";
    for (const answer of [
      () => new Response(`<html>no route for ApiKey ${apiKey}</html>`, { status: 400 }),
      () =>
        new Response(
          JSON.stringify({
            respCode: "80001",
            respMsg: `key ${apiKey} may not see card 4111111111111111`,
          }),
        ),
    ]) {
      const client = new IssuingClient({
        environment: { origin: "http://issuing.test" },
        apiKey,
        maxRetries: 0,
        fetch: async () => answer(),
      });
      const error = await client.cards.freeze({ cardId: "1" }).catch((e: unknown) => e);
      for (const shown of [
        (error as Error).message,
        inspect(error, { depth: null, showHidden: true }),
        JSON.stringify(error),
      ]) {
        expect(shown).not.toContain(apiKey);
        expect(shown).not.toContain("4111111111111111");
      }
    }
  });
});

describe("authentication", () => {
  it("sends the ApiKey header; a wrong ApiKey is an AuthenticationError (HTTP 401)", async () => {
    await bed.issuing.transactions.list({ pageSize: 1 });
    const [logged] = await bed.sandbox.admin.requests({ path: `${PREFIX}/queryTxnList` });
    expect(logged?.headers.apikey).toBe("[REDACTED]");
    expect(logged?.httpStatus).toBe(200);

    const wrong = bed.client({ apiKey: "not-the-key" });
    const error = await wrong.cards
      .create({ cardholderId: "1", productId: PRODUCTS.USD, amount: "10.00" })
      .catch((e: unknown) => e);
    expect(isAuthenticationError(error)).toBe(true);
    expect(error).toMatchObject({ httpStatus: 401, respCode: "81000" });
    expect(await bed.sent("/card/createCard")).toHaveLength(1);
  });

  it("HTTP 403 (IP not allowed) is a PermissionError and is not retried", async () => {
    await bed.sandbox.admin.injectFault({
      path: `${PREFIX}/card/operate`,
      kind: "http_status",
      status: 403,
      count: 1,
    });
    const error = await bed.issuing.cards
      .freeze({ cardId: "1953712585351499776" })
      .catch((e: unknown) => e);
    expect(isPermissionError(error)).toBe(true);
    expect(error).toMatchObject({ httpStatus: 403 });
    expect(await bed.sent("/card/operate")).toHaveLength(1);
  });
});

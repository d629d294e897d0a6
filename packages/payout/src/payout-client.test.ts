/** PayoutClient construction, authentication, payment methods and balances against the sandbox. */
import { inspect } from "node:util";
import {
  isAuthenticationError,
  isConfigurationError,
  isInvalidRequestError,
  type RequestEvent,
} from "@merchantkit/core";
import { type RunningSandbox, startSandbox } from "@merchantkit/sandbox";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PayoutClient } from "./payout-client";
import { bodyOf, clientFor, MERCHANT_NO, SECRET_KEY } from "./testing/fixtures";

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.admin.clearRequests());

describe("PayoutClient", () => {
  it("refuses a missing secret key or a bad environment at construction", () => {
    const attempts = [
      () => new PayoutClient({ environment: "sandbox", secretKey: "" }),
      () => new PayoutClient({ environment: "staging" as never, secretKey: SECRET_KEY }),
      () => new PayoutClient({ environment: { origin: "ftp://x" }, secretKey: SECRET_KEY }),
      () => new PayoutClient({ environment: { account: "https://a.test" }, secretKey: SECRET_KEY }),
      () => new PayoutClient({ environment: "sandbox", secretKey: "  " }),
      () => new PayoutClient({ environment: "sandbox", secretKey: `${SECRET_KEY}\nX` }),
      () => new PayoutClient({ environment: "sandbox", secretKey: SECRET_KEY, merchantNo: "" }),
    ];
    for (const attempt of attempts) {
      expect(attempt).toThrow();
      try {
        attempt();
      } catch (error) {
        expect(isConfigurationError(error)).toBe(true);
        expect((error as Error).message).not.toContain(SECRET_KEY);
      }
    }
  });

  it("signs with the secret key: a wrong one is an AuthenticationError", async () => {
    const wrong = clientFor(sandbox, { secretKey: "not-the-key" });
    const error = await wrong.balances.list().catch((e: unknown) => e);
    expect(isAuthenticationError(error)).toBe(true);
    expect(error).toMatchObject({ respCode: "40100" });
  });

  it("needs merchantNo from the client or the call, and sends nothing without it", async () => {
    const anonymous = new PayoutClient({
      environment: { origin: sandbox.url },
      secretKey: SECRET_KEY,
    });
    // Issuing's wording: a ConfigurationError saying where merchantNo goes, not a bare
    // "merchantNo: is required" RequestValidationError.
    for (const call of [
      () => anonymous.balances.list(),
      () => anonymous.beneficiaries.list({}),
      () => anonymous.transfers.retrieve({ payoutId: "1" }),
    ]) {
      const error = await call().catch((e: unknown) => e);
      expect(isConfigurationError(error)).toBe(true);
      expect((error as Error).message).toBe(
        "merchantNo is required for payout calls: pass it to new PayoutClient({ merchantNo }) or in the params",
      );
    }
    expect(await sandbox.admin.requests()).toEqual([]);
    const balances = await anonymous.balances.list({ merchantNo: MERCHANT_NO });
    expect(balances.map((b) => b.currency)).toContain("USD");
  });

  it("lists balances per currency as decimal strings", async () => {
    const payout = clientFor(sandbox);
    const all = await payout.balances.list();
    expect(all.map((b) => b.currency)).toEqual(["EUR", "HKD", "SGD", "USD"]);
    const [usd] = await payout.balances.list({ currency: "USD" });
    expect(usd).toEqual({
      currency: "USD",
      availableBalance: "1000000.00",
      frozenBalance: "0.00",
      totalBalance: "1000000.00",
    });
  });

  it("lists payment methods per destination", async () => {
    const payout = clientFor(sandbox);
    const ph = await payout.paymentMethods.list({
      destinationCountry: "PH",
      accountCurrency: "PHP",
      entityType: "1",
    });
    expect(ph.paymentMethods).toEqual(["LOCAL", "E_WALLET", "CASH_PICKUP"]);
    const none = await payout.paymentMethods.list({
      destinationCountry: "ZZ",
      accountCurrency: "USD",
      entityType: "0",
    });
    expect(none.paymentMethods).toEqual([]);
  });

  it("answers 42201 for a route the service does not offer", async () => {
    const payout = clientFor(sandbox);
    const error = await payout.paymentFields
      .retrieve({
        payoutCurrency: "PHP",
        bankCountry: "PH",
        entityType: "0",
        paymentMethod: "E_WALLET",
      })
      .catch((e: unknown) => e);
    expect(isInvalidRequestError(error)).toBe(true);
    expect(error).toMatchObject({ respCode: "42201" });
  });

  it("reports every call to the hooks with the payout path, secrets redacted", async () => {
    const events: RequestEvent[] = [];
    const payout = clientFor(sandbox, {
      hooks: { onRequest: (e) => events.push(e) },
      includeBodies: true,
    });
    await payout.balances.list();
    expect(events).toHaveLength(1);
    expect(events[0]?.path).toBe("/api/v1/acct/queryAcctCurrency");
    expect(events[0]?.url).toBe(`${sandbox.url}/payout/api/v1/acct/queryAcctCurrency`);
    expect(bodyOf(events[0]).sign).not.toMatch(/^[0-9a-f]{64}$/);
  });

  it("never shows a card number or its secret key that an answer echoes, in any form of the error", async () => {
    const PAN = "4111111111111111";
    const answers = [
      // A business failure whose text and an unknown field hold a card number.
      new Response(
        JSON.stringify({
          respCode: "40000",
          respMsg: `invalid cardNumber ${PAN}`,
          data: { cardNumber: PAN, cardNo: PAN },
        }),
      ),
      // An answer of the wrong shape with a card number in free text.
      new Response(
        JSON.stringify({
          respCode: "20000",
          respMsg: "ok",
          data: { note: `card ${PAN}`, cardNo: PAN },
        }),
      ),
      // A proxy's error page echoing a grouped card number and the secret key.
      new Response(`<html>error for card 4111 1111 1111 1111 key=${SECRET_KEY}</html>`, {
        status: 502,
      }),
    ];
    for (const answer of answers) {
      const payout = clientFor(sandbox, { fetch: async () => answer, maxRetries: 0 });
      const error = await payout.beneficiaries
        .retrieve({ beneficiaryId: "1" })
        .catch((e: unknown) => e);
      for (const shown of [
        (error as Error).message,
        inspect(error, { depth: null, showHidden: true }),
        JSON.stringify(error),
      ]) {
        expect(shown).not.toContain(PAN);
        expect(shown).not.toContain("4111 1111");
        expect(shown).not.toContain(SECRET_KEY);
      }
    }
  });
});

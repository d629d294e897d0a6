import { parseJson } from "@merchantkit/core";
import { startTestServer } from "@merchantkit/core/testing";
import { type RunningSandbox, startSandbox } from "@merchantkit/sandbox";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  AccountClient,
  accountErrorOf,
  isApiError,
  isInvalidRequestError,
  isNotFoundError,
  isPermissionError,
  isRequestValidationError,
} from "./index";

const PATH = "/account-server/api/v1/account/global/getDetail";

interface HeldAccount {
  merchantNo: string;
  globalAccountId: string;
  globalAccountNo: string;
  supportCurrencies: string[];
}

let sandbox: RunningSandbox;
let client: AccountClient;
let own: HeldAccount[];
let child: HeldAccount;

beforeAll(async () => {
  sandbox = await startSandbox();
  client = new AccountClient({
    environment: { origin: sandbox.url },
    apiKey: "sandbox-account-api-key",
  });
  const res = await fetch(`${sandbox.url}/__sandbox/account/global-accounts`);
  const { globalAccounts } = parseJson(await res.text()) as unknown as {
    globalAccounts: HeldAccount[];
  };
  own = globalAccounts.filter((a) => a.merchantNo === "M1000001");
  child = globalAccounts.find((a) => a.merchantNo === "M1000002") as HeldAccount;
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.admin.clearRequests());

describe("globalAccounts.retrieve", () => {
  it("reads an account by globalAccountId, by globalAccountNo, or by both when they agree", async () => {
    const [usd, eur] = own as [HeldAccount, HeldAccount];
    const byId = await client.globalAccounts.retrieve({ globalAccountId: usd.globalAccountId });
    expect(byId).toMatchObject({
      globalAccountId: usd.globalAccountId,
      globalAccountNo: usd.globalAccountNo,
      status: "Active",
      supportCurrencies: usd.supportCurrencies,
    });
    // 64-bit, beyond 2^53: exact digits, as a string.
    expect(BigInt(byId.globalAccountId) > 2n ** 53n).toBe(true);

    const byNo = await client.globalAccounts.retrieve({ globalAccountNo: eur.globalAccountNo });
    expect(byNo.globalAccountId).toBe(eur.globalAccountId);

    const both = await client.globalAccounts.retrieve({
      globalAccountId: eur.globalAccountId,
      globalAccountNo: eur.globalAccountNo,
    });
    expect(both.globalAccountNo).toBe(eur.globalAccountNo);
  });

  it("turns success: false into a typed error with the error object, never data", async () => {
    const [usd, eur] = own as [HeldAccount, HeldAccount];
    const call = client.globalAccounts.retrieve({
      globalAccountId: usd.globalAccountId,
      globalAccountNo: eur.globalAccountNo,
    });
    const error = await call.withResponse().catch((e: unknown) => e);
    expect(isInvalidRequestError(error)).toBe(true);
    expect(error).toMatchObject({ respCode: "40001", body: { success: false } });
    expect((error as { body: Record<string, unknown> }).body.data).toBeUndefined();
    expect(accountErrorOf(error)).toMatchObject({
      code: "40001",
      details: [{ field: "globalAccountNo" }],
    });
    await expect(call).rejects.toBe(error);
  });

  it("needs globalAccountId or globalAccountNo, checked before sending", async () => {
    const error = await client.globalAccounts.retrieve({}).catch((e: unknown) => e);
    expect(isRequestValidationError(error)).toBe(true);
    expect(error).toMatchObject({ field: "globalAccountId" });
    const notDigits = await client.globalAccounts
      .retrieve({ globalAccountId: "GA-1" })
      .catch((e: unknown) => e);
    expect(isRequestValidationError(notDigits)).toBe(true);
    expect(await sandbox.admin.requests()).toHaveLength(0);
  });

  it("is a NotFoundError for an account that does not exist", async () => {
    const error = await client.globalAccounts
      .retrieve({ globalAccountId: "1953712585351499776" })
      .catch((e: unknown) => e);
    expect(isNotFoundError(error)).toBe(true);
    expect(error).toMatchObject({ respCode: "40004" });
    expect(accountErrorOf(error)?.code).toBe("40004");
    // The generated requestId traces the call: it is on the error, as it was on the wire.
    const [sent] = await sandbox.admin.requests({ path: PATH });
    expect((error as { requestId: string }).requestId).toBe(
      (sent?.body as { requestId?: string } | undefined)?.requestId,
    );
  });

  it("reads a sub-merchant's account only with onBehalfOf", async () => {
    const denied = await client.globalAccounts
      .retrieve({ globalAccountId: child.globalAccountId })
      .catch((e: unknown) => e);
    expect(isPermissionError(denied)).toBe(true);
    expect(denied).toMatchObject({ respCode: "40009" });

    const account = await client.globalAccounts.retrieve(
      { globalAccountId: child.globalAccountId },
      { onBehalfOf: "M1000002" },
    );
    expect(account.globalAccountNo).toBe(child.globalAccountNo);
    const sent = (await sandbox.admin.requests({ path: PATH })).at(-1)?.body;
    expect(sent).toMatchObject({ onBehalfOf: "M1000002" });
  });

  it("never hands out data next to success: false, even with respCode 20000", async () => {
    const server = await startTestServer((_req, res) => {
      res.setHeader("content-type", "application/json");
      res.end(
        '{"success":false,"respCode":"20000","respMsg":"success","data":{"globalAccountId":"1"}}',
      );
    });
    try {
      const remote = new AccountClient({ environment: { origin: server.url }, apiKey: "k" });
      const error = await remote.globalAccounts
        .retrieve({ globalAccountId: "1" })
        .then(() => "data was returned")
        .catch((e: unknown) => e);
      expect(isApiError(error)).toBe(true);
      expect(server.requests).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});

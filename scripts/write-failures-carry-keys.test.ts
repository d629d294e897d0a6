/**
 * Issue 18 §1: a write that fails after it may have reached the service must tell its caller the
 * idempotency key it was sent with, or a retry mints a new key and pays twice. Every write method
 * of every client is driven against a refused connection and against a server that never answers;
 * a table check proves the list covers every write endpoint of the contract.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { endpoints, originPath } from "@merchantkit/contract";
import { isConnectionError, isTimeoutError, parseJson } from "@merchantkit/core";
import { IssuingClient } from "@merchantkit/issuing";
import { PayoutClient } from "@merchantkit/payout";
import { individualPayer, phWallet } from "@merchantkit/payout/testing";
import { ProfitShareClient } from "@merchantkit/profit-share";
import { afterEach, describe, expect, it, vi } from "vitest";

interface Clients {
  payout: PayoutClient;
  issuing: IssuingClient;
  profitShare: ProfitShareClient;
}
type Options = { idempotencyKey?: string };

const ID = "1953712585351499776";
const receivers = [
  { profitDetailReference: "d1", type: "MERCHANT", account: "M2", amount: "1.10" },
];
const beneficiary = phWallet();

/** Every write method of every client, with the contract path it calls. */
const WRITES: [
  method: string,
  path: string,
  call: (c: Clients, o: Options) => PromiseLike<unknown>,
][] = [
  [
    "payout.beneficiaries.create",
    "/payout/api/v1/beneficiary/add",
    (c, o) => c.payout.beneficiaries.create(beneficiary, o),
  ],
  [
    "payout.beneficiaries.update",
    "/payout/api/v1/beneficiary/edit",
    (c, o) => c.payout.beneficiaries.update({ ...beneficiary, beneficiaryId: ID }, o),
  ],
  [
    "payout.payers.create",
    "/payout/api/v1/acct/addPayer",
    (c, o) => c.payout.payers.create(individualPayer(), o),
  ],
  [
    "payout.transfers.create",
    "/payout/api/v1/txn/remittance",
    (c, o) =>
      c.payout.transfers.create(
        {
          beneficiaryId: ID,
          beneficiaryPaymentMethod: "E_WALLET",
          payerId: ID,
          sourceCurrency: "USD",
          targetCurrency: "PHP",
          transactionPurpose: "salary",
          chargeFlag: "Y",
          targetAmount: "500.00",
        },
        o,
      ),
  ],
  [
    "issuing.cardholders.create",
    "/api/v1/merchant/cardholder/createCardholder",
    (c, o) =>
      c.issuing.cardholders.create(
        { firstName: "Ada", lastName: "Lovelace", email: "ada@example.com" },
        o,
      ),
  ],
  [
    "issuing.cardholders.update",
    "/api/v1/merchant/cardholder/updateCardholder",
    (c, o) => c.issuing.cardholders.update({ cardholderId: ID, lastName: "King" }, o),
  ],
  [
    "issuing.cards.create",
    "/api/v1/merchant/card/createCard",
    (c, o) => c.issuing.cards.create({ cardholderId: ID, productId: ID, amount: "10.00" }, o),
  ],
  [
    "issuing.cards.deposit",
    "/api/v1/merchant/card/deposit",
    (c, o) => c.issuing.cards.deposit({ cardId: ID, amount: "10.10" }, o),
  ],
  [
    "issuing.cards.returnBalance",
    "/api/v1/merchant/card/returnCardBalance",
    (c, o) => c.issuing.cards.returnBalance({ cardId: ID, amount: "1.00" }, o),
  ],
  [
    "issuing.cards.freeze",
    "/api/v1/merchant/card/operate",
    (c, o) => c.issuing.cards.freeze({ cardId: ID }, o),
  ],
  [
    "issuing.cards.unfreeze",
    "/api/v1/merchant/card/operate",
    (c, o) => c.issuing.cards.unfreeze({ cardId: ID }, o),
  ],
  [
    "issuing.cards.terminate",
    "/api/v1/merchant/card/operate",
    (c, o) => c.issuing.cards.terminate({ cardId: ID }, o),
  ],
  [
    "profitShare.share",
    "/profit/share",
    (c, o) =>
      c.profitShare.share(
        {
          gatewayReference: "1953712585351499776",
          currency: "USD",
          receivers,
          profitCompleted: true,
        },
        o,
      ),
  ],
  [
    "profitShare.reverse",
    "/profit/share",
    (c, o) =>
      c.profitShare.reverse(
        {
          currency: "USD",
          profitGatewayReference: "1953712585351499777",
          profitParentReference: "p-1",
          receivers,
        },
        o,
      ),
  ],
];

const writeEndpoints = endpoints.filter((e) => e.kind === "write");
const keyField = (path: string) =>
  writeEndpoints.find((e) => originPath(e) === path)?.idempotencyKey?.field;

function clientsOn(origin: string, timeoutMs: number): Clients {
  const common = {
    environment: { origin },
    timeoutMs,
    maxRetries: 1,
    retryDelay: { baseDelayMs: 1, maxDelayMs: 2 },
  };
  return {
    payout: new PayoutClient({ ...common, secretKey: "s3cret", merchantNo: "M1" }),
    issuing: new IssuingClient({ ...common, apiKey: "issuing-key", merchantNo: "M1" }),
    profitShare: new ProfitShareClient({ ...common, secretKey: "s3cret", merchantNo: "M1" }),
  };
}

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

/** A server that reads every request and never answers; the bodies it received. */
async function silentServer(): Promise<{ origin: string; bodies: Record<string, unknown>[] }> {
  const bodies: Record<string, unknown>[] = [];
  server = createServer((req) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      text += chunk;
    });
    req.on("end", () => bodies.push(parseJson(text) as Record<string, unknown>));
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bodies };
}

/** An origin on which nothing listens (a port that was just free). */
async function refusedOrigin(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return `http://127.0.0.1:${port}`;
}

const failure = (p: PromiseLike<unknown>) =>
  Promise.resolve(p).then(
    () => undefined,
    (e: unknown) => e,
  );

describe("a failed write names the idempotency key it was sent with", () => {
  it("the list covers every write endpoint of the contract", () => {
    expect(new Set(WRITES.map(([, path]) => path))).toEqual(
      new Set(writeEndpoints.map(originPath)),
    );
  });

  it.each(WRITES)(
    "%s: a refused connection is a ConnectionError with the key",
    async (_m, path, call) => {
      const clients = clientsOn(await refusedOrigin(), 2_000);
      const key = keyField(path) === undefined ? undefined : `key-${path.length}`;
      const error = await failure(call(clients, key === undefined ? {} : { idempotencyKey: key }));
      expect(isConnectionError(error)).toBe(true);
      expect(error).toMatchObject({ code: "ECONNREFUSED", idempotencyKey: key });
    },
  );

  it.each(WRITES)(
    "%s: a server that never answers is a TimeoutError with the key sent",
    async (_m, path, call) => {
      const { origin, bodies } = await silentServer();
      const error = await failure(call(clientsOn(origin, 500), {}));
      expect(isTimeoutError(error)).toBe(true);
      const field = keyField(path);
      if (field === undefined) {
        // No key to repeat: not retried after it may have arrived, and nothing to name.
        // The server reads in this process: let it finish reading what was sent.
        await vi.waitFor(() => expect(bodies).toHaveLength(1));
        expect((error as { idempotencyKey?: string }).idempotencyKey).toBeUndefined();
        return;
      }
      // A keyed write is retried with the same key, and the error names that key.
      await vi.waitFor(() => expect(bodies).toHaveLength(2));
      const sent = bodies.map((b) => b[field]);
      expect(typeof sent[0]).toBe("string");
      expect(sent[1]).toBe(sent[0]);
      expect((error as { idempotencyKey?: string }).idempotencyKey).toBe(sent[0]);
    },
  );
});

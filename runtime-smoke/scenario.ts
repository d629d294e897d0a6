/**
 * The one scenario every runtime runs (Node, Bun, Deno, workerd), against a sandbox the Node
 * driver started: it imports the built packages exactly as a merchant's code would, and touches
 * each area once. Web-standard APIs only (fetch, Web Crypto, URL): no `node:` import here.
 */
import { AccountClient } from "@merchantkit/account";
import { IssuingClient } from "@merchantkit/issuing";
import { PayoutClient } from "@merchantkit/payout";
import { ProfitShareClient } from "@merchantkit/profit-share";
import { verifyIssuingWebhook } from "@merchantkit/webhooks";

/** What the driver prepared for one runtime. */
export interface SmokeInput {
  runtime: string;
  origin: string;
  /** Sandbox keys (its defaults). */
  keys: { issuing: string; account: string; secretKey: string; merchantNo: string };
  /** The generated card transactions' window, in epoch seconds. */
  window: { start: number; end: number };
  /** 150 serviceIds of generated card operations. */
  serviceIds: string[];
  /** A completed payment registered for profit sharing. */
  gatewayReference: string;
  /** An issuing webhook signed by the driver with node:crypto, and its secret. */
  webhook: { secret: string; body: string; headers: Record<string, string> };
}

export interface SmokeStep {
  step: string;
  ok: boolean;
  detail: string;
}

async function step(out: SmokeStep[], name: string, run: () => Promise<string>) {
  try {
    out.push({ step: name, ok: true, detail: await run() });
  } catch (error) {
    out.push({
      step: name,
      ok: false,
      detail: error instanceof Error ? error.message : String(error),
    });
  }
}

function expect(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}

export async function runScenario(input: SmokeInput): Promise<SmokeStep[]> {
  const environment = { origin: input.origin };
  const retryDelay = { baseDelayMs: 5, maxDelayMs: 20 };
  const issuing = new IssuingClient({
    environment,
    apiKey: input.keys.issuing,
    merchantNo: input.keys.merchantNo,
    retryDelay,
  });
  const payout = new PayoutClient({
    environment,
    secretKey: input.keys.secretKey,
    merchantNo: input.keys.merchantNo,
    retryDelay,
  });
  const profit = new ProfitShareClient({
    environment,
    secretKey: input.keys.secretKey,
    merchantNo: input.keys.merchantNo,
    retryDelay,
  });
  const account = new AccountClient({ environment, apiKey: input.keys.account, retryDelay });
  const out: SmokeStep[] = [];
  const tag = `${input.runtime}-${Date.now()}`;

  await step(out, "issuing: cardholder, card, freeze", async () => {
    const holder = await issuing.cardholders.create({
      firstName: "Smoke",
      lastName: input.runtime,
      email: `smoke-${tag}@example.com`,
    });
    const { cardId } = await issuing.cards.create({
      cardholderId: holder.cardholderId,
      productId: "1953712585300000001",
      amount: "100.00",
    });
    const [create] = await issuing.operateRecords.list({ cardId }).toArray({ limit: 10 });
    await issuing.operateRecords.waitFor(create?.operateRecordId as string, {
      cardId,
      intervalMs: 50,
    });
    const freeze = await issuing.cards.freeze({ cardId });
    const frozen = await issuing.operateRecords.waitFor(freeze.operateRecordId, {
      cardId,
      intervalMs: 50,
    });
    expect(frozen.status === "S", `freeze ended ${frozen.status}`);
    return `card ${cardId} frozen`;
  });

  await step(out, "issuing: 250 card transactions with for await", async () => {
    let n = 0;
    const ids = new Set<string>();
    for await (const txn of issuing.transactions.list({
      startTime: input.window.start,
      endTime: input.window.end,
      pageSize: 100,
    })) {
      ids.add(txn.txnOrderNo);
      expect(
        /^\d+\.\d{2}$/.test(txn.cardAmount ?? "0.00"),
        `amount ${txn.cardAmount} is not a decimal string`,
      );
      if (++n === 250) break;
    }
    expect(n === 250 && ids.size === 250, `paged ${n} (${ids.size} distinct)`);
    return "250 distinct transactions";
  });

  await step(out, "payout: remittance through a 503-after fault, one payout", async () => {
    const { beneficiaryId } = await payout.beneficiaries.create({
      merchantRefId: `smoke-${tag}`,
      bankCountry: "US",
      payoutCurrency: "USD",
      entityType: "1",
      paymentMethod: "LOCAL",
      receiverInfo: { firstName: "Ada", lastName: "Lovelace", email: `ada-${tag}@example.com` },
      address: {
        countryCode: "US",
        state: "NY",
        city: "New York",
        addressLine1: "1 Main St",
        postalCode: "10001",
      },
      accountInfomation: {
        cardNumber: String(Date.now()).slice(-12),
        accountType: "0",
        branchCode: "021000021",
        bankHolderName: "Ada Lovelace",
      },
    });
    await payout.beneficiaries.waitForReview(beneficiaryId, { intervalMs: 50 });
    const payerId = await payout.payers.create({
      subEntityType: "1",
      country: "SG",
      firstName: "Grace",
      lastName: "Hopper",
    });
    // The driver armed a fault: the service takes the first remittance and answers 503.
    const { data: transfer, response } = await payout.transfers
      .create({
        beneficiaryId,
        payerId,
        sourceCurrency: "USD",
        targetCurrency: "USD",
        sourceAmount: "12.34",
        chargeFlag: "N",
        transactionPurpose: "salary",
        beneficiaryPaymentMethod: "LOCAL",
      })
      .withResponse();
    expect(response.attempts === 2, `${response.attempts} attempts (the fault should make 2)`);
    const same = await payout.transfers.retrieve({ requestId: transfer.requestId });
    expect(same.payoutId === transfer.payoutId, "the retry made a second payout");
    return `payout ${transfer.payoutId}, ${response.attempts} attempts, one key ${transfer.requestId}`;
  });

  await step(out, "profit share: share and reverse", async () => {
    const receivers = [
      { profitDetailReference: `d-${tag}`, type: "MERCHANT", account: "M2000001", amount: "1.00" },
    ];
    const share = await profit.share({
      gatewayReference: input.gatewayReference,
      currency: "USD",
      receivers,
      profitCompleted: false,
      // The sandbox's payments carry no notify URL; a share then names where its result goes.
      urlCallback: `${input.origin}/__smoke/profit-result`,
    });
    const done = await profit.waitForResult(
      { profitReference: share.profitReference },
      { intervalMs: 50 },
    );
    expect(done.state === "success", `share ended ${done.state}`);
    const reversal = await profit.reverse({
      currency: "USD",
      receivers: [
        { ...receivers[0], profitDetailReference: `r-${tag}` } as (typeof receivers)[number],
      ],
      profitGatewayReference: done.profitGatewayReference as string,
      profitParentReference: share.profitReference,
      urlCallback: `${input.origin}/__smoke/profit-result`,
    });
    return `share ${share.profitReference} ${done.state}, reversal ${reversal.profitReference}`;
  });

  await step(out, "account: transactions by 150 serviceIds", async () => {
    const records = await account.transactions.listByServiceIds(input.serviceIds);
    const found = new Set(records.map((r) => r.serviceId));
    expect(found.size > 100, `postings for ${found.size} of 150 serviceIds`);
    return `${records.length} postings for ${found.size} serviceIds`;
  });

  await step(out, "webhooks: independent signature verified, tampered refused", async () => {
    const { secret, body, headers } = input.webhook;
    await verifyIssuingWebhook({ rawBody: body, headers, secret });
    const tampered = body.replace("12.34", "12.35");
    const refused = await verifyIssuingWebhook({ rawBody: tampered, headers, secret }).then(
      () => false,
      () => true,
    );
    expect(refused, "a tampered body verified");
    return "verified, tampered refused";
  });

  return out;
}

/** Test helpers for this package's tests: a client on a running sandbox, payments to share, the sandbox's truth. */
import { parseJson, stringifyJson } from "@merchantkit/core";
import type { RunningSandbox } from "@merchantkit/sandbox";
import type { ProfitShareClientOptions } from "../client-options";
import { ProfitShareClient } from "../profit-share-client";
import type { ProfitShareReceiver } from "../types";

export const SECRET_KEY = "sandbox-secret-key";
export const MERCHANT_NO = "M1000001";
export const NOTIFY_URL = "https://merchant.example.com/profit-share";

export function clientFor(
  sandbox: RunningSandbox,
  over: Partial<ProfitShareClientOptions> = {},
): ProfitShareClient {
  return new ProfitShareClient({
    environment: { origin: sandbox.url },
    secretKey: SECRET_KEY,
    merchantNo: MERCHANT_NO,
    retryDelay: { baseDelayMs: 1, maxDelayMs: 5 },
    ...over,
  });
}

/** Registers a completed payment open for profit share; answers its gatewayReference. */
export async function payment(
  sandbox: RunningSandbox,
  over: Record<string, unknown> = {},
): Promise<string> {
  const res = await fetch(`${sandbox.url}/__sandbox/profitShare/payments`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: stringifyJson({
      amount: "100.00",
      currency: "USD",
      profitShare: true,
      profitShareNotifyUrl: NOTIFY_URL,
      ...over,
    }),
  });
  if (res.status !== 201) throw new Error(`payment not registered: ${await res.text()}`);
  const body = parseJson(await res.text()) as { payment: { gatewayReference: string } };
  return body.payment.gatewayReference;
}

export function receiver(over: Partial<ProfitShareReceiver> = {}): ProfitShareReceiver {
  return {
    profitDetailReference: "d1",
    type: "MERCHANT",
    account: "M2000001",
    amount: "10.10",
    ...over,
  };
}

/** A share or reversal as the sandbox holds it. */
export interface ShareTruth {
  profitType: string;
  profitReference: string;
  profitGatewayReference: string;
  state: string;
  currency: string;
  receivers: Record<string, unknown>[];
  gatewayReference?: string;
  profitCompleted?: boolean;
}

export async function shareTruth(
  sandbox: RunningSandbox,
  profitReference: string,
): Promise<ShareTruth | undefined> {
  const state = await sandbox.admin.state();
  const area = state.areas.profitShare as unknown as { shares: ShareTruth[] };
  return area.shares.find((s) => s.profitReference === profitReference);
}

/** The (redacted) body the sandbox logged for a request; {} when there is none. */
export function bodyOf(entry: { body?: unknown } | undefined): Record<string, unknown> {
  return (entry?.body ?? {}) as Record<string, unknown>;
}

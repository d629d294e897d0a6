/**
 * The profit-share handler tests' common start: an area on a test runtime with one payment
 * (100.00 USD, profit share on, a notify URL) registered through the area's admin routes.
 */
import { parseJson, stringifyJson } from "@merchantkit/core";
import { Hono } from "hono";
import { createProfitShareArea } from "../profit-share/profit-share-area";
import { endpointCaller, testRuntime } from "./area-runtime";

export const GATEWAY = "1953712585351499776";

export async function setup() {
  const t = testRuntime({ settleDelayMs: 2_000 });
  const area = createProfitShareArea(t.runtime);
  const admin = new Hono();
  area.admin?.(admin);
  const register = async (body: Record<string, unknown>) => {
    const res = await admin.request("/payments", { method: "POST", body: stringifyJson(body) });
    return {
      status: res.status,
      body: parseJson(await res.text()) as { payment: Record<string, unknown> },
    };
  };
  const payment = await register({
    gatewayReference: GATEWAY,
    amount: "100.00",
    currency: "USD",
    profitShare: true,
    profitShareNotifyUrl: "https://merchant.example/profit",
  });
  if (payment.status !== 201) throw new Error(`registering the payment answered ${payment.status}`);
  return { ...t, area, call: endpointCaller(area, t.runtime), register };
}

export const receivers = (...items: [string, string][]) =>
  items.map(([account, amount], i) => ({
    profitDetailReference: `d-${account}-${i}`,
    type: "MERCHANT",
    account,
    amount,
  }));

export const share = (profitReference: string, over: Record<string, unknown> = {}) => ({
  profitType: "share",
  currency: "USD",
  profitReference,
  gatewayReference: "1953712585351499776",
  profitCompleted: false,
  receivers: receivers(["acct-a", "30.00"]),
  ...over,
});

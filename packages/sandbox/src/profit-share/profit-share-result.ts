/**
 * The result `data` of /profit/share and /profit/query, and the notification body. The response
 * `sign` is the provider-notes §1 SHA-256 rule with config.secretKey over the WIRE form of the
 * other fields (receivers as the JSON text actually sent), because that is what a client
 * holding the response can recompute.
 */
import { type AppOf, profitShareResult } from "@merchantkit/contract";
import * as v from "valibot";
import { signSync } from "../runtime/sign-sync";
import type { ProfitOperation } from "./profit-share-state";

export type ProfitShareResult = AppOf<typeof profitShareResult>;

/** The result without sign (also the core of the notification). */
export function resultOf(op: ProfitOperation): ProfitShareResult {
  return {
    profitType: op.profitType,
    profitReference: op.profitReference,
    profitGatewayReference: op.profitGatewayReference,
    state: op.state,
    currency: op.currency,
    receivers: op.receivers.map((r) => ({ ...r.result })),
  };
}

/** The result as the API answers it: with its sign. */
export function signedResultOf(op: ProfitOperation, secretKey: string): ProfitShareResult {
  const data = resultOf(op);
  const wire = v.parse(profitShareResult.encode, data) as Record<string, unknown>;
  return { ...data, sign: signSync(wire, secretKey) };
}

/** The result notification (app form, unsigned: the pusher adds its sign). */
export function notificationOf(op: ProfitOperation): Record<string, unknown> {
  return { ...resultOf(op), merchantNo: op.merchantNo };
}

/** "YYYY-MM-DD HH:mm:ss" in UTC (receiver createdAt / finishedAt). */
export function formatProfitTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace("T", " ");
}

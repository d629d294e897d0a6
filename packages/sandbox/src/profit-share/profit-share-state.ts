/**
 * What the profit-share area holds: the completed payments admin registered (the API cannot
 * create them: payments come from the wider platform) and every share and return, each with
 * its receivers as the result reports them plus the account and description they were sent with.
 */
import type { AppOf, profitShareReceiverResult } from "@merchantkit/contract";

export type ReceiverResult = AppOf<typeof profitShareReceiverResult>;

export interface ProfitPayment {
  /** The payment's transactionId (64-bit digits). */
  gatewayReference: string;
  merchantNo: string;
  amount: string;
  currency: string;
  /** paymentMethodOptions.share.profitShare of the payment. */
  profitShare: boolean;
  profitShareNotifyUrl?: string | undefined;
  /** True once a share with profitCompleted=true was accepted: no further shares. */
  completed: boolean;
  createdAt: number;
}

export interface ReceiverEntry {
  result: ReceiverResult;
  account: string;
  description?: string | undefined;
}

export interface ProfitOperation {
  profitType: "share" | "return";
  merchantNo: string;
  profitReference: string;
  profitGatewayReference: string;
  /** "processing" until every receiver finished, then success / partial / failed. */
  state: string;
  currency: string;
  receivers: ReceiverEntry[];
  urlCallback?: string | undefined;
  /** The payment shared (for a return: the payment of the share it reverses). */
  gatewayReference: string;
  /** share only. */
  profitCompleted?: boolean | undefined;
  /** return only: the profitGatewayReference of the share it reverses. */
  parentGatewayReference?: string | undefined;
  createdAt: number;
}

export class ProfitShareState {
  readonly payments = new Map<string, ProfitPayment>();
  /** By profitGatewayReference. */
  readonly operations = new Map<string, ProfitOperation>();
  /** profitReference → profitGatewayReference, across merchants and operation types. */
  readonly byReference = new Map<string, string>();

  add(op: ProfitOperation): void {
    this.operations.set(op.profitGatewayReference, op);
    this.byReference.set(op.profitReference, op.profitGatewayReference);
  }

  byProfitReference(profitReference: string): ProfitOperation | undefined {
    const gatewayReference = this.byReference.get(profitReference);
    return gatewayReference === undefined ? undefined : this.operations.get(gatewayReference);
  }

  /** Shares of a payment, in creation order. */
  sharesOf(gatewayReference: string): ProfitOperation[] {
    return [...this.operations.values()].filter(
      (op) => op.profitType === "share" && op.gatewayReference === gatewayReference,
    );
  }

  /** Returns that reverse the share `parentGatewayReference`. */
  returnsOf(parentGatewayReference: string): ProfitOperation[] {
    return [...this.operations.values()].filter(
      (op) => op.profitType === "return" && op.parentGatewayReference === parentGatewayReference,
    );
  }
}

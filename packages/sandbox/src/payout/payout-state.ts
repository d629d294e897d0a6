/**
 * What the payout area holds: beneficiaries, payers and payouts, each as the service would
 * return it (app form of the contract's records) plus the little the simulation needs beside it
 * (creation time, a generation counter that invalidates scheduled transitions).
 */
import type { AppOf, beneficiaryRecord, payerRecord, transferRecord } from "@merchantkit/contract";

export type BeneficiaryRecord = AppOf<typeof beneficiaryRecord>;
export type PayerRecord = AppOf<typeof payerRecord>;
export type TransferRecord = AppOf<typeof transferRecord>;

export interface BeneficiaryEntry {
  record: BeneficiaryRecord;
  merchantNo: string;
  createdAt: number;
  /** Bumped by every edit and forced review, so a review scheduled earlier does nothing. */
  reviewGeneration: number;
}

export interface PayerEntry {
  record: PayerRecord;
  merchantNo: string;
  createdAt: number;
}

export interface PayoutEntry {
  record: TransferRecord;
  merchantNo: string;
  createdAt: number;
  /** Debited amount (principal + fee), refunded in full when the payout fails. */
  debit: string;
}

export class PayoutState {
  readonly beneficiaries = new Map<string, BeneficiaryEntry>();
  readonly payers = new Map<string, PayerEntry>();
  readonly payouts = new Map<string, PayoutEntry>();
  readonly #payoutByRequestId = new Map<string, string>();

  beneficiary(merchantNo: string, beneficiaryId: string): BeneficiaryEntry | undefined {
    const entry = this.beneficiaries.get(beneficiaryId);
    return entry?.merchantNo === merchantNo ? entry : undefined;
  }

  payer(merchantNo: string, payerId: string): PayerEntry | undefined {
    const entry = this.payers.get(payerId);
    return entry?.merchantNo === merchantNo ? entry : undefined;
  }

  payout(merchantNo: string, payoutId: string): PayoutEntry | undefined {
    const entry = this.payouts.get(payoutId);
    return entry?.merchantNo === merchantNo ? entry : undefined;
  }

  payoutByRequestId(merchantNo: string, requestId: string): PayoutEntry | undefined {
    const payoutId = this.#payoutByRequestId.get(`${merchantNo}\u0000${requestId}`);
    return payoutId === undefined ? undefined : this.payouts.get(payoutId);
  }

  addPayout(entry: PayoutEntry): void {
    this.payouts.set(entry.record.payoutId, entry);
    this.#payoutByRequestId.set(
      `${entry.merchantNo}\u0000${entry.record.requestId}`,
      entry.record.payoutId,
    );
  }
}

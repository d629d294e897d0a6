/** Test helpers for this package's tests: a client on a running sandbox, beneficiaries and payers that satisfy the sandbox's templates. */
import type { RunningSandbox } from "@merchantkit/sandbox";
import * as templates from "@merchantkit/sandbox/testing";
import type { PayoutClientOptions } from "../client-options";
import { PayoutClient } from "../payout-client";
import type { BeneficiaryCreateParams, PayerCreateParams, TransferCreateParams } from "../types";

export const SECRET_KEY = "sandbox-secret-key";
export const MERCHANT_NO = "M1000001";

export function clientFor(
  sandbox: RunningSandbox,
  over: Partial<PayoutClientOptions> = {},
): PayoutClient {
  return new PayoutClient({
    environment: { origin: sandbox.url },
    secretKey: SECRET_KEY,
    merchantNo: MERCHANT_NO,
    // Retries in tests wait milliseconds, not seconds.
    retryDelay: { baseDelayMs: 1, maxDelayMs: 5 },
    ...over,
  });
}

let serial = 0;
/** A card (account) number no other test has used. */
export function uniqueCard(): string {
  serial++;
  return `${Date.now() % 1_000_000}${String(serial).padStart(6, "0")}`;
}

/**
 * The sandbox's template with a card (account) number no other test has used: one sandbox
 * serves a whole test file, and a beneficiary is found again by its number.
 */
function fresh(
  template: () => { accountInfomation: Record<string, unknown> },
  over: Partial<BeneficiaryCreateParams>,
): BeneficiaryCreateParams {
  const base = template();
  return {
    ...base,
    accountInfomation: { ...base.accountInfomation, cardNumber: uniqueCard() },
    ...over,
  } as BeneficiaryCreateParams;
}

/** US/USD LOCAL individual: reviewed (WAITING → PROCESS → PASS). */
export const usLocalPerson = (over: Partial<BeneficiaryCreateParams> = {}) =>
  fresh(templates.usLocalPerson, over);

/** US/USD SWIFT company: reviewed; remittances to it need feeBearing. */
export const usSwiftCompany = (over: Partial<BeneficiaryCreateParams> = {}) =>
  fresh(templates.usSwiftCompany, over);

/** PH/PHP E_WALLET individual: no review, UNNECESSARY at once. */
export const phWallet = (over: Partial<BeneficiaryCreateParams> = {}) =>
  fresh(templates.phWallet, over);

export const individualPayer = (over: Partial<PayerCreateParams> = {}): PayerCreateParams =>
  templates.individualPayer(over) as PayerCreateParams;

/** A USD → USD remittance with the fees taken out of sourceAmount. */
export function usdRemittance(
  over: Partial<TransferCreateParams> & Pick<TransferCreateParams, "beneficiaryId">,
): TransferCreateParams {
  return templates.remittance(over) as TransferCreateParams;
}

/** The payout area as the sandbox holds it (ids as strings). */
export interface PayoutTruth {
  beneficiaries: { beneficiaryId: string; payeeStatus: string }[];
  payers: { id: string }[];
  payouts: { payoutId: string; requestId: string; payerId?: string; payoutStatus: string }[];
}

export async function payoutTruth(sandbox: RunningSandbox): Promise<PayoutTruth> {
  const state = await sandbox.admin.state();
  return state.areas.payout as unknown as PayoutTruth;
}

/** The (redacted) body the sandbox logged for a request; {} when there is none. */
export function bodyOf(entry: { body?: unknown } | undefined): Record<string, unknown> {
  return (entry?.body ?? {}) as Record<string, unknown>;
}

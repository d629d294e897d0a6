/** Test helpers for this package's tests: a client on a running sandbox, beneficiaries and payers that satisfy the sandbox's templates. */
import type { RunningSandbox } from "@merchantkit/sandbox";
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

/** US/USD LOCAL individual: reviewed (WAITING → PROCESS → PASS). */
export function usLocalPerson(
  over: Partial<BeneficiaryCreateParams> = {},
): BeneficiaryCreateParams {
  return {
    merchantRefId: "user-1",
    bankCountry: "US",
    payoutCurrency: "USD",
    entityType: "1",
    paymentMethod: "LOCAL",
    receiverInfo: { firstName: "Ada", lastName: "Lovelace", email: "ada@example.com" },
    address: {
      countryCode: "US",
      state: "NY",
      city: "New York",
      addressLine1: "1 Main St",
      postalCode: "10001",
    },
    accountInfomation: {
      cardNumber: uniqueCard(),
      accountType: "0",
      branchCode: "021000021",
      bankHolderName: "Ada Lovelace",
    },
    ...over,
  };
}

/** US/USD SWIFT company: reviewed; remittances to it need feeBearing. */
export function usSwiftCompany(
  over: Partial<BeneficiaryCreateParams> = {},
): BeneficiaryCreateParams {
  return {
    merchantRefId: "corp-1",
    bankCountry: "US",
    payoutCurrency: "USD",
    entityType: "0",
    paymentMethod: "SWIFT",
    receiverInfo: { companyName: "Analytical Engines Inc" },
    address: {
      countryCode: "US",
      state: "CA",
      city: "San Francisco",
      addressLine1: "2 Market St",
      postalCode: "94105",
    },
    accountInfomation: {
      cardNumber: uniqueCard(),
      swiftCode: "CHASUS33",
      bankName: "Chase",
      bankHolderName: "Analytical Engines Inc",
    },
    ...over,
  };
}

/** PH/PHP E_WALLET individual: no review, UNNECESSARY at once. */
export function phWallet(over: Partial<BeneficiaryCreateParams> = {}): BeneficiaryCreateParams {
  return {
    merchantRefId: "wallet-1",
    bankCountry: "PH",
    payoutCurrency: "PHP",
    entityType: "1",
    paymentMethod: "E_WALLET",
    receiverInfo: { firstName: "Jose", lastName: "Rizal", areaCode: "63", phone: "9171234567" },
    address: { countryCode: "PH" },
    accountInfomation: { cardNumber: uniqueCard(), walletType: "GCASH" },
    ...over,
  };
}

export function individualPayer(over: Partial<PayerCreateParams> = {}): PayerCreateParams {
  return {
    subEntityType: "1",
    country: "SG",
    firstName: "Grace",
    lastName: "Hopper",
    email: "grace@example.com",
    idType: "1",
    idNumber: "E1234567",
    ...over,
  };
}

/** A USD → USD remittance with the fees taken out of sourceAmount. */
export function usdRemittance(
  over: Partial<TransferCreateParams> & Pick<TransferCreateParams, "beneficiaryId">,
): TransferCreateParams {
  return {
    sourceCurrency: "USD",
    targetCurrency: "USD",
    transactionPurpose: "salary",
    chargeFlag: "N",
    sourceAmount: "100.00",
    ...over,
  } as TransferCreateParams;
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

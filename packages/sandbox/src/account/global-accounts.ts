/**
 * The Global Accounts the account area holds: receiving accounts per merchant and currency,
 * seeded deterministically for the configured merchant and each of its children, and created
 * by the admin route. Looked up by globalAccountId (a 64-bit number as a string) or by
 * globalAccountNo.
 */
import type { AppOf, globalAccount } from "@merchantkit/contract";
import type { Runtime } from "../runtime/area";

export type GlobalAccountApp = AppOf<typeof globalAccount>;

export interface HeldGlobalAccount {
  /** The merchant (customer) the account belongs to. */
  merchantNo: string;
  record: GlobalAccountApp;
}

interface BankDetails {
  bankCountry: string;
  bankName: string;
  bankCode: string;
  swiftCode: string;
  bankAddress: string;
  addressCity: string;
  addressPostalCode: string;
  /** IBAN country prefix where the country uses IBANs. */
  ibanCountry?: string;
}

const BANKS: Record<string, BankDetails> = {
  USD: {
    bankCountry: "US",
    bankName: "Sandbox Bank N.A.",
    bankCode: "026009593",
    swiftCode: "SBXBUS33",
    bankAddress: "100 Sandbox Plaza, New York, NY",
    addressCity: "New York",
    addressPostalCode: "10001",
  },
  EUR: {
    bankCountry: "DE",
    bankName: "Sandbox Bank AG",
    bankCode: "37040044",
    swiftCode: "SBXBDEFF",
    bankAddress: "Sandboxstrasse 1, Frankfurt am Main",
    addressCity: "Frankfurt am Main",
    addressPostalCode: "60311",
    ibanCountry: "DE",
  },
  GBP: {
    bankCountry: "GB",
    bankName: "Sandbox Bank plc",
    bankCode: "040004",
    swiftCode: "SBXBGB2L",
    bankAddress: "1 Sandbox Lane, London",
    addressCity: "London",
    addressPostalCode: "EC2V 7HH",
    ibanCountry: "GB",
  },
  SGD: {
    bankCountry: "SG",
    bankName: "Sandbox Bank Singapore",
    bankCode: "7171",
    swiftCode: "SBXBSGSG",
    bankAddress: "1 Sandbox Quay, Singapore",
    addressCity: "Singapore",
    addressPostalCode: "018989",
  },
  HKD: {
    bankCountry: "HK",
    bankName: "Sandbox Bank Hong Kong",
    bankCode: "004",
    swiftCode: "SBXBHKHH",
    bankAddress: "1 Sandbox Road, Central, Hong Kong",
    addressCity: "Hong Kong",
    addressPostalCode: "000000",
  },
};

/** A syntactically valid IBAN (ISO 13616 mod-97 check digits) for `country` and `bban`. */
export function iban(country: string, bban: string): string {
  const digits = `${bban}${country}00`.replace(/[A-Z]/g, (ch) => String(ch.charCodeAt(0) - 55));
  const check = 98n - (BigInt(digits) % 97n);
  return `${country}${String(check).padStart(2, "0")}${bban}`;
}

export interface NewGlobalAccount {
  merchantNo: string;
  currency: string;
  globalAccountName?: string | undefined;
  customerName?: string | undefined;
  status?: string | undefined;
}

export class GlobalAccounts {
  readonly #byId = new Map<string, HeldGlobalAccount>();
  readonly #byNo = new Map<string, HeldGlobalAccount>();
  readonly #runtime: Runtime;

  constructor(runtime: Runtime) {
    this.#runtime = runtime;
  }

  /** The seed: USD and EUR accounts for the merchant, one USD account per child. */
  seed(): void {
    const { merchantNo, children } = this.#runtime.config;
    this.create({ merchantNo, currency: "USD" });
    this.create({ merchantNo, currency: "EUR" });
    for (const child of children) this.create({ merchantNo: child, currency: "USD" });
  }

  create(input: NewGlobalAccount): HeldGlobalAccount {
    const bank = BANKS[input.currency] ?? (BANKS.USD as BankDetails);
    const serial = String(this.#byId.size + 1).padStart(4, "0");
    const accountNumber = `${input.merchantNo.replace(/\D/g, "").padStart(8, "0")}${serial}`;
    const customerName = input.customerName ?? `Sandbox Merchant ${input.merchantNo}`;
    const record: GlobalAccountApp = {
      globalAccountId: this.#runtime.ids.next(),
      globalAccountNo: `GA${accountNumber}`,
      globalAccountName: input.globalAccountName ?? `${customerName} ${input.currency}`,
      customerId: input.merchantNo,
      customerName,
      mainAccountNo: `MA${input.merchantNo.replace(/\D/g, "").padStart(8, "0")}`,
      mainAccountName: `${customerName} main account`,
      ...(bank.ibanCountry
        ? { iban: iban(bank.ibanCountry, `${bank.bankCode}${accountNumber}`) }
        : {}),
      bankCode: bank.bankCode,
      swiftCode: bank.swiftCode,
      bankAddress: bank.bankAddress,
      bankName: bank.bankName,
      bankCountry: bank.bankCountry,
      bizTypeList: ["COLLECTION", "PAYOUT"],
      supportCurrencies: [input.currency],
      institution: bank.bankName,
      operatingEntity: "Sandbox Payments Ltd.",
      status: input.status ?? "Active",
      globalActiveTime: "2026-04-28T00:00:00.000Z",
      addressCity: bank.addressCity,
      addressPostalCode: bank.addressPostalCode,
    };
    const held = { merchantNo: input.merchantNo, record };
    this.#byId.set(record.globalAccountId, held);
    this.#byNo.set(record.globalAccountNo as string, held);
    return held;
  }

  byId(id: string): HeldGlobalAccount | undefined {
    return this.#byId.get(id);
  }

  byNo(no: string): HeldGlobalAccount | undefined {
    return this.#byNo.get(no);
  }

  all(): HeldGlobalAccount[] {
    return [...this.#byId.values()];
  }
}

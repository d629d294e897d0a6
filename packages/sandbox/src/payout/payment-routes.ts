/**
 * The payout routes the sandbox offers: per (bankCountry, payoutCurrency, paymentMethod) the
 * entity types it serves, whether beneficiaries need review, and the Y/C/N field templates of
 * queryPaymentFeild. queryPaymentMethods, beneficiary validation and the admin template list
 * all read this one table, so a route added here is offered everywhere at once.
 */

export type Requirement = "Y" | "C" | "N";
export type FieldTemplate = Record<string, Requirement>;
export type EntityType = "0" | "1";

export interface PaymentFieldTemplate {
  receiverInfo: FieldTemplate;
  address: FieldTemplate;
  accountInfomation: FieldTemplate;
}

export interface PaymentRoute extends PaymentFieldTemplate {
  bankCountry: string;
  payoutCurrency: string;
  paymentMethod: string;
  entityType: EntityType;
  /** False: beneficiaries start UNNECESSARY (no review); true: WAITING → PROCESS → PASS/REJECT. */
  review: boolean;
}

interface RouteDef {
  bankCountry: string;
  payoutCurrency: string;
  paymentMethod: string;
  entityTypes: readonly EntityType[];
  review: boolean;
  /** Receiver keys beyond the entity type's base set (or overriding it). */
  receiverExtra?: FieldTemplate;
  address: FieldTemplate;
  accountInfomation: FieldTemplate;
}

const companyReceiver: FieldTemplate = {
  companyName: "Y",
  email: "N",
  areaCode: "N",
  phone: "N",
  vatNumber: "N",
};
const personReceiver: FieldTemplate = {
  firstName: "Y",
  lastName: "Y",
  email: "N",
  areaCode: "N",
  phone: "N",
  birthDate: "N",
};
const fullAddress: FieldTemplate = {
  countryCode: "Y",
  state: "Y",
  city: "Y",
  addressLine1: "Y",
  addressLine2: "N",
  postalCode: "Y",
};
const ukAddress: FieldTemplate = {
  countryCode: "Y",
  city: "Y",
  addressLine1: "Y",
  addressLine2: "N",
  postalCode: "Y",
  state: "N",
};
const swiftAccount: FieldTemplate = {
  cardNumber: "Y",
  swiftCode: "Y",
  bankName: "Y",
  bankHolderName: "Y",
  accountType: "N",
};

const routeDefs: readonly RouteDef[] = [
  {
    bankCountry: "US",
    payoutCurrency: "USD",
    paymentMethod: "LOCAL",
    entityTypes: ["0", "1"],
    review: true,
    address: fullAddress,
    // branchCode holds the ABA routing number.
    accountInfomation: {
      cardNumber: "Y",
      accountType: "Y",
      branchCode: "Y",
      bankHolderName: "Y",
      bankName: "N",
    },
  },
  {
    bankCountry: "US",
    payoutCurrency: "USD",
    paymentMethod: "SWIFT",
    entityTypes: ["0", "1"],
    review: true,
    address: fullAddress,
    accountInfomation: swiftAccount,
  },
  {
    bankCountry: "GB",
    payoutCurrency: "GBP",
    paymentMethod: "LOCAL",
    entityTypes: ["0", "1"],
    review: true,
    address: ukAddress,
    accountInfomation: { cardNumber: "Y", sortCode: "Y", bankHolderName: "Y", bankName: "N" },
  },
  {
    bankCountry: "GB",
    payoutCurrency: "GBP",
    paymentMethod: "SWIFT",
    entityTypes: ["0", "1"],
    review: true,
    address: ukAddress,
    accountInfomation: swiftAccount,
  },
  {
    bankCountry: "PH",
    payoutCurrency: "PHP",
    paymentMethod: "LOCAL",
    entityTypes: ["0", "1"],
    review: true,
    address: { countryCode: "Y", city: "C", addressLine1: "C", postalCode: "N" },
    accountInfomation: { cardNumber: "Y", bankName: "Y", bankHolderName: "Y", swiftCode: "C" },
  },
  {
    bankCountry: "PH",
    payoutCurrency: "PHP",
    paymentMethod: "E_WALLET",
    entityTypes: ["1"],
    review: false,
    receiverExtra: { areaCode: "Y", phone: "Y" },
    address: { countryCode: "Y", city: "N" },
    // cardNumber is the wallet account number; walletPhone when the wallet is keyed by phone.
    accountInfomation: { cardNumber: "Y", walletType: "Y", walletPhone: "C" },
  },
  {
    bankCountry: "PH",
    payoutCurrency: "PHP",
    paymentMethod: "CASH_PICKUP",
    entityTypes: ["1"],
    review: true,
    receiverExtra: { areaCode: "Y", phone: "Y", identityType: "Y", identityNumber: "Y" },
    address: { countryCode: "Y", city: "Y", addressLine1: "N" },
    accountInfomation: {
      pickUpBankName: "Y",
      pickUpBankBranchName: "C",
      pickUpBankBranchId: "C",
      pickUpBankBranchAddress: "N",
    },
  },
  {
    bankCountry: "SG",
    payoutCurrency: "SGD",
    paymentMethod: "LOCAL",
    entityTypes: ["0", "1"],
    review: true,
    address: { countryCode: "Y", addressLine1: "Y", postalCode: "Y", city: "N" },
    accountInfomation: { cardNumber: "Y", swiftCode: "Y", bankName: "Y", bankHolderName: "Y" },
  },
  {
    bankCountry: "CN",
    payoutCurrency: "CNY",
    paymentMethod: "LOCAL",
    entityTypes: ["1"],
    review: true,
    receiverExtra: { phone: "Y", identityType: "Y", identityNumber: "Y" },
    address: { countryCode: "Y", city: "N" },
    accountInfomation: { cardNumber: "Y", bankName: "Y", bankHolderName: "Y", branchCode: "N" },
  },
  {
    bankCountry: "CN",
    payoutCurrency: "CNY",
    paymentMethod: "SWIFT",
    entityTypes: ["0"],
    review: true,
    address: fullAddress,
    accountInfomation: swiftAccount,
  },
  {
    bankCountry: "HK",
    payoutCurrency: "HKD",
    paymentMethod: "LOCAL",
    entityTypes: ["0", "1"],
    review: true,
    address: { countryCode: "Y", city: "Y", addressLine1: "Y" },
    accountInfomation: { cardNumber: "Y", bankName: "Y", branchCode: "Y", bankHolderName: "Y" },
  },
];

/** Every route, one per entity type, in table order. */
export const paymentRoutes: readonly PaymentRoute[] = routeDefs.flatMap((def) =>
  def.entityTypes.map((entityType) => ({
    bankCountry: def.bankCountry,
    payoutCurrency: def.payoutCurrency,
    paymentMethod: def.paymentMethod,
    entityType,
    review: def.review,
    receiverInfo: {
      ...(entityType === "0" ? companyReceiver : personReceiver),
      ...def.receiverExtra,
    },
    address: { ...def.address },
    accountInfomation: { ...def.accountInfomation },
  })),
);

export function findRoute(q: {
  bankCountry: string;
  payoutCurrency: string;
  entityType: string;
  paymentMethod: string;
}): PaymentRoute | undefined {
  return paymentRoutes.find(
    (r) =>
      r.bankCountry === q.bankCountry &&
      r.payoutCurrency === q.payoutCurrency &&
      r.entityType === q.entityType &&
      r.paymentMethod === q.paymentMethod,
  );
}

/** Methods open for a destination, currency and entity type, in table order, no repeats. */
export function methodsFor(
  bankCountry: string,
  payoutCurrency: string,
  entityType: string,
): string[] {
  const methods = paymentRoutes
    .filter(
      (r) =>
        r.bankCountry === bankCountry &&
        r.payoutCurrency === payoutCurrency &&
        r.entityType === entityType,
    )
    .map((r) => r.paymentMethod);
  return [...new Set(methods)];
}

/**
 * The Y keys of `route` missing from the beneficiary's parts, as "part.key" paths. A value
 * counts as missing when absent, null or blank. C and N keys are not enforced.
 */
export function missingRequiredFields(
  route: PaymentFieldTemplate,
  parts: Record<keyof PaymentFieldTemplate, Record<string, unknown>>,
): string[] {
  const missing: string[] = [];
  for (const part of ["receiverInfo", "address", "accountInfomation"] as const) {
    for (const [key, requirement] of Object.entries(route[part])) {
      if (requirement !== "Y") continue;
      const value = parts[part][key];
      if (value === undefined || value === null || (typeof value === "string" && !value.trim())) {
        missing.push(`${part}.${key}`);
      }
    }
  }
  return missing;
}

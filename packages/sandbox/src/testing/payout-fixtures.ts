/** Request params (app form) the payout tests share: beneficiaries that satisfy their templates, payers. */

export function usLocalPerson(overrides: Record<string, unknown> = {}) {
  return {
    merchantRefId: "user-1",
    bankCountry: "US",
    payoutCurrency: "USD",
    entityType: "1" as const,
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
      cardNumber: "000123456789",
      accountType: "0" as const,
      branchCode: "021000021",
      bankHolderName: "Ada Lovelace",
    },
    ...overrides,
  };
}

export function usSwiftCompany(overrides: Record<string, unknown> = {}) {
  return {
    merchantRefId: "corp-1",
    bankCountry: "US",
    payoutCurrency: "USD",
    entityType: "0" as const,
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
      cardNumber: "987654321000",
      swiftCode: "CHASUS33",
      bankName: "Chase",
      bankHolderName: "Analytical Engines Inc",
    },
    ...overrides,
  };
}

export function phWallet(overrides: Record<string, unknown> = {}) {
  return {
    merchantRefId: "wallet-1",
    bankCountry: "PH",
    payoutCurrency: "PHP",
    entityType: "1" as const,
    paymentMethod: "E_WALLET",
    receiverInfo: { firstName: "Jose", lastName: "Rizal", areaCode: "63", phone: "9171234567" },
    address: { countryCode: "PH" },
    accountInfomation: { cardNumber: "09171234567", walletType: "GCASH" },
    ...overrides,
  };
}

export function individualPayer(overrides: Record<string, unknown> = {}) {
  return {
    subEntityType: "1" as const,
    country: "SG",
    firstName: "Grace",
    lastName: "Hopper",
    email: "grace@example.com",
    idType: "1",
    idNumber: "E1234567",
    ...overrides,
  };
}

/** Account-area resources: the account transaction record and the Global Account. */
// biome-ignore lint/correctness/noUnusedImports: so the .d.ts says JsonNumber, not import("@merchantkit/core").JsonNumber, which the bundled .d.ts loses (scripts/check-pack.ts)
import type { JsonNumber } from "@merchantkit/core";
import * as c from "../codec";
import { accountIsoTimestamp } from "./fields";

/** One balance change (contract "Account transaction record"; ids are 64-bit, provider-notes §3). */
export const accountTransactionRecord = c.object({
  acntTxnId: c.id(),
  serviceId: c.id(),
  currency: c.string({ nonEmpty: true }),
  /** Values not documented: open. */
  balanceType: c.string(),
  /** Signed: negative for a debit. */
  amount: c.amountString({ sign: "any" }),
  balanceUpdDate: accountIsoTimestamp,
  /** Values not documented: open. */
  businessType: c.string(),
  // Not every balance change has an external order or a remark; null reads as absent.
  externalOrderId: c.optional(c.string()),
  remark: c.optional(c.string()),
});

/** Global Account lifecycle status: only "Active" is seen, so any other value passes. */
export const globalAccountStatus = c.openEnum(["Active"]);

/**
 * A Global Account. Read leniently: only globalAccountId (the identity every lookup resolves
 * to) is required; the rest may be absent or null. The id is a digit string on the wire but
 * read as a number too, without losing digits.
 */
export const globalAccount = c.object({
  globalAccountId: c.idText(),
  globalAccountNo: c.optional(c.string()),
  globalAccountName: c.optional(c.string()),
  customerId: c.optional(c.string()),
  customerName: c.optional(c.string()),
  mainAccountNo: c.optional(c.string()),
  mainAccountName: c.optional(c.string()),
  iban: c.optional(c.string()),
  bankCode: c.optional(c.string()),
  swiftCode: c.optional(c.string()),
  bankAddress: c.optional(c.string()),
  bankName: c.optional(c.string()),
  bankCountry: c.optional(c.string()),
  bizTypeList: c.optional(c.array(c.string())),
  supportCurrencies: c.optional(c.array(c.string())),
  institution: c.optional(c.string()),
  webhookUrl: c.optional(c.string()),
  operatingEntity: c.optional(c.string()),
  status: c.optional(globalAccountStatus),
  globalActiveTime: c.optional(accountIsoTimestamp),
  addressCity: c.optional(c.string()),
  addressPostalCode: c.optional(c.string()),
});

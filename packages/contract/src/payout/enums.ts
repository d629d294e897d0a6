/** Payout enumerations: beneficiary and payout statuses, flags, entity and id types, methods. */
import * as c from "../codec";
import { caseInsensitiveOpenEnum } from "./local-codecs";

/**
 * Beneficiary review status (provider-notes §2). A payout may go only to PASS or UNNECESSARY;
 * REJECT means resubmit with beneficiary/edit. Read case-insensitively because the contract's
 * sample shows "unnecessary" while the provider's docs spell the values in capitals.
 */
export const payeeStatus = caseInsensitiveOpenEnum([
  "WAITING",
  "PROCESS",
  "REJECT",
  "PASS",
  "FAIL",
  "UNNECESSARY",
  "PENDING_UPDATE",
  "DISABLE",
]);

/** The statuses a beneficiary must be in before txn/remittance (provider-notes §2). */
export const payableStatuses = ["PASS", "UNNECESSARY"] as const;

/**
 * Payout status (our design, ASSUMPTIONS.md): single letters like the rest of the service
 * (card operations and transactions use P/S/F, and "S" is seen in a payout sample).
 */
export const payoutStatus = c.openEnum(["P", "S", "F"]);

/** What each payoutStatus letter means, for messages and docs. */
export const payoutStatusMeaning = {
  P: "processing",
  S: "success",
  F: "failure",
} as const;

/** The payout result webhook's status wording (contract: success, failure or processing). */
export const payoutNotificationStatus = c.openEnum(["success", "failure", "processing"]);

/*
 * chargeFlag, feeBearing, entityType and subEntityType are open: the documented values are the
 * SDK's types, but a value the service adds later passes (issue 5: "accept unknown future values
 * without crashing"); the service — and the sandbox — still answer an unsupported one with an error.
 */

/** Y: the payer bears the fees, the beneficiary receives targetAmount in full; N: fees come out of sourceAmount. */
export const chargeFlag = c.openEnum(["Y", "N"]);

/** Who bears SWIFT charges: OUR (the payer) or SHA (shared). */
export const feeBearing = c.openEnum(["OUR", "SHA"]);

/** Beneficiary entity type: "0" company, "1" individual. */
export const payoutEntityType = c.openEnum(["0", "1"]);

/** Payer entity type: "0" business, "1" individual; decides which identity fields are needed. */
export const subEntityType = c.openEnum(["0", "1"]);

/** Payer identity document: "0" NRIC, "1" PASSPORT, "2" CORPORATE_REGISTRATION_NUMBER. */
export const payerIdType = c.openEnum(["0", "1", "2"]);

/**
 * Payout method of a beneficiary (and payoutMethod of a transfer). Which exist depends on
 * country and currency; BANK_TRANSFER and DIGITAL_WALLET are seen in samples only.
 */
export const payoutPaymentMethod = c.openEnum([
  "LOCAL",
  "SWIFT",
  "E_WALLET",
  "CASH_PICKUP",
  "BANK_TRANSFER",
  "DIGITAL_WALLET",
]);

/** Bank account type inside accountInfomation: "0" checking, "1" saving, "2" ordinary. */
export const beneficiaryAccountType = c.closedEnum(["0", "1", "2"]);

/** A queryPaymentFeild template value: Y required, C conditional, N optional. */
export const fieldRequirement = c.closedEnum(["Y", "C", "N"]);

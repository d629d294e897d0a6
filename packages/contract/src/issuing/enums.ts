/** Issuing enumerations: operation types and statuses, transaction types, 3DS delivery values. */
import * as c from "../codec";

/**
 * Card operation types. The contract lists CREATE, FREEZE, UNFREEZE for the query filter, a
 * sample uses DEPOSIT and the operate event adds TERMINATE and RETURN; the service may add more.
 */
export const operateRecordType = c.openEnum([
  "CREATE",
  "FREEZE",
  "UNFREEZE",
  "DEPOSIT",
  "TERMINATE",
  "RETURN",
]);

/** Card operation status: P processing, S success, F failed. */
export const operateStatus = c.closedEnum(["P", "S", "F"]);

/** Fee item types of an operation: CREATE card creation fee, DEPOSIT deposit fee. */
export const operateFeeType = c.openEnum(["CREATE", "DEPOSIT"]);

/** Card transaction types; queryTxnList accepts all five (provider-notes §4). */
export const cardTxnType = c.openEnum([
  "AUTHORIZATION",
  "REVERSAL",
  "CLEARING",
  "REFUND",
  "VERIFICATION",
]);

/** Card transaction status: S success, F failed, P processing. */
export const cardTxnStatus = c.closedEnum(["S", "F", "P"]);

/** 3DS delivery values; only one value of each is shown, so all three are open. */
export const threeDsType = c.openEnum(["OTP"]);
export const threeDsSendMethod = c.openEnum(["WEBHOOK"]);
export const threeDsSendStatus = c.openEnum(["S"]);

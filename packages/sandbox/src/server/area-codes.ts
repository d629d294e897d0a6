/**
 * The business codes the server itself answers with, per area: the ones the generic pipeline
 * needs (parameter error, duplicate idempotency key, authentication) before or around a handler.
 * Taken from the contract's code tables; where a table lacks a code the choice is in ASSUMPTIONS.md.
 */
import type { Area } from "../runtime/area";

export type AreaName = Area["name"];

export interface AreaCodes {
  /** The request body is not JSON, not an object, or fails the endpoint's request codec. */
  parameterError: string;
  /** The same idempotency key came back with different parameters. */
  duplicate: string;
}

export const AREA_CODES: Readonly<Record<AreaName, AreaCodes>> = {
  issuing: { parameterError: "40000", duplicate: "80010" },
  account: { parameterError: "40001", duplicate: "40006" },
  payout: { parameterError: "40000", duplicate: "40900" },
  profitShare: { parameterError: "40000", duplicate: "40900" },
};

/** A bug in the sandbox (a handler threw something else, or returned data the contract refuses). */
export const INTERNAL_ERROR_CODE = "50000";

/** Sign areas (payout, profit share). */
export const SIGN_CODES = {
  badSign: "40100",
  unknownMerchant: "40101",
} as const;

export const ISSUING_UNAUTHORIZED = {
  respCode: "81000",
  respMsg: "unauthorized merchant",
} as const;

export const ACCOUNT_AUTH_CODES = {
  badApiKey: "40100",
  badTimestamp: "40101",
  /** onBehalfOf is not a child of the configured merchant. */
  transactionsDenied: "40003",
  getDetailDenied: "40009",
} as const;

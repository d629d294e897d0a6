/**
 * The profit-share client's public types, derived from the contract: a share and a reversal are
 * the two variants of one wire call, so each method's params are that variant without
 * profitType (the client sets it), and the other variant's keys are typed `never`.
 */
import type {
  AppOf,
  profitQuery,
  profitShare,
  profitShareReceiver,
  profitShareReceiverResult,
  profitShareState,
} from "@merchantkit/contract";
import type { EndpointParams, EndpointResult } from "@merchantkit/core";

/** Both variants of /profit/share, discriminated by profitType ("share" | "return"). */
export type ProfitShareRequest = EndpointParams<typeof profitShare>;

type Variant<T extends ProfitShareRequest["profitType"]> = Omit<
  Extract<ProfitShareRequest, { profitType: T }>,
  "profitType"
>;

/**
 * A share of a completed payment's proceeds: gatewayReference (the payment) and
 * profitCompleted (true closes the payment to further shares) are required.
 */
export type ShareParams = Variant<"share"> & {
  profitGatewayReference?: never;
  profitParentReference?: never;
};

/**
 * A reversal of an earlier share, named by its profitGatewayReference and profitReference
 * (as profitParentReference); gatewayReference and profitCompleted belong to a share only.
 */
export type ReverseParams = Variant<"return"> & {
  gatewayReference?: never;
  profitCompleted?: never;
};

/** One receiver of a share or a reversal (JSON-encoded into `receivers` on the wire). */
export type ProfitShareReceiver = AppOf<typeof profitShareReceiver>;

/** "processing" until every receiver is done, then "success", "failed" or "partial" (open). */
export type ProfitShareState = AppOf<typeof profitShareState>;

/** The states after which nothing changes any more. */
export type FinalProfitShareState = "success" | "failed" | "partial";

/**
 * The result of /profit/share and /profit/query. A share or reversal is answered while still
 * in `state: "processing"`: 20000 means accepted, not done. Wait with `waitForResult` or the
 * result notification.
 */
export type ProfitShareResult = EndpointResult<typeof profitShare>;

/** One receiver's result: "pending", then "success" or "failed" with failReason. */
export type ProfitShareReceiverResult = AppOf<typeof profitShareReceiverResult>;

/** Names a share or reversal: by the merchant's profitReference, or the service's profitGatewayReference. */
export type ProfitShareQueryParams = EndpointParams<typeof profitQuery>;

/** A result whose state is final. */
export type FinalProfitShareResult = ProfitShareResult & { state: FinalProfitShareState };

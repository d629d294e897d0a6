/**
 * Every endpoint of the contract in one table. The sandbox mounts its routes from it, the
 * OpenAPI document is generated from it, and a test compares it with the contract's path list.
 */
import { AREA_PREFIX, type Area } from "@merchantkit/core";
import { accountEndpoints } from "./account";
import type { ContractEndpoint } from "./endpoint";
import { issuingEndpoints } from "./issuing";
import { payoutEndpoints } from "./payout";
import { profitShareEndpoints } from "./profit-share";

export const endpoints: readonly ContractEndpoint[] = [
  ...payoutEndpoints,
  ...accountEndpoints,
  ...issuingEndpoints,
  ...profitShareEndpoints,
];

/** The path as served on one origin: the area's prefix followed by the endpoint's path. */
export function originPath(endpoint: { area: Area; path: string }): string {
  return AREA_PREFIX[endpoint.area] + endpoint.path;
}

const byOriginPath = new Map(endpoints.map((e) => [originPath(e), e]));

/** The endpoint served at `path` on one origin (e.g. "/payout/api/v1/txn/remittance"). */
export function findEndpoint(path: string): ContractEndpoint | undefined {
  return byOriginPath.get(path);
}

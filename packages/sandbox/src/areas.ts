/**
 * The four simulated areas, in the order the server creates them. Each factory lives in its
 * area's folder; the server knows areas only through this list and the Area interface.
 */
import { createAccountArea } from "./account/account-area";
import { createIssuingArea } from "./issuing/issuing-area";
import { createPayoutArea } from "./payout/payout-area";
import { createProfitShareArea } from "./profit-share/profit-share-area";
import type { AreaFactory } from "./runtime/area";

export const defaultAreas: readonly AreaFactory[] = [
  createPayoutArea,
  createAccountArea,
  createIssuingArea,
  createProfitShareArea,
];

/** The issuing area: endpoints, shared fields, records, enumerations and business codes. */
// biome-ignore lint/correctness/noUnusedImports: so the .d.ts says JsonNumber, not import("@merchantkit/core").JsonNumber, which the bundled .d.ts loses (scripts/check-pack.ts)
import type { JsonNumber } from "@merchantkit/core";
import { cardCreateCard } from "./card-create-card";
import { cardDeposit } from "./card-deposit";
import { cardGetOperateRecordList } from "./card-get-operate-record-list";
import { cardOperate } from "./card-operate";
import { cardQuery3dsNotify } from "./card-query3ds-notify";
import { cardReturnCardBalance } from "./card-return-card-balance";
import { cardholderCreateCardholder } from "./cardholder-create-cardholder";
import { cardholderUpdateCardholder } from "./cardholder-update-cardholder";
import { queryTxnList } from "./query-txn-list";

export * from "./card-create-card";
export * from "./card-deposit";
export * from "./card-get-operate-record-list";
export * from "./card-operate";
export * from "./card-query3ds-notify";
export * from "./card-return-card-balance";
export * from "./cardholder-create-cardholder";
export * from "./cardholder-update-cardholder";
export * from "./codes";
export * from "./enums";
export * from "./fields";
export * from "./query-txn-list";
export * from "./records";

/** Every endpoint of the issuing area. */
export const issuingEndpoints = [
  cardholderCreateCardholder,
  cardholderUpdateCardholder,
  cardCreateCard,
  cardDeposit,
  cardReturnCardBalance,
  cardOperate,
  cardGetOperateRecordList,
  cardQuery3dsNotify,
  queryTxnList,
] as const;

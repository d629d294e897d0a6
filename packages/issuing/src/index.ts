/**
 * @merchantkit/issuing: cardholders, cards (create, deposit, freeze, unfreeze, terminate,
 * return balance), operate records, card transactions and 3DS deliveries, over core's
 * transport: checked against the contract before sending, keyed writes retried safely, every
 * list awaitable for one page and iterable with `for await`.
 */
// The error guards and result types of core, so this package alone is enough to call and to catch.
export * from "@merchantkit/core/client";
export { Cardholders } from "./cardholders";
export { Cards } from "./cards";
export type { IssuingClientOptions } from "./client-options";
export { IssuingClient } from "./issuing-client";
export { DEFAULT_PAGE_SIZE } from "./issuing-list";
export { OperateRecords } from "./operate-records";
export { ThreeDs } from "./three-ds";
export { CardTransactions } from "./transactions";
export type * from "./types";

/** Issuing webhook events: envelope, the event types, acknowledgement, headers and retry rule. */
export * from "./card-id-or-masked";
export * from "./card-operate-event";
export * from "./card-transaction-event";
export * from "./envelope";
export * from "./issuing-event";
export * from "./webhook";

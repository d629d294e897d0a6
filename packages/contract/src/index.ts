/**
 * @merchantkit/contract: the service's wire format, once. Every endpoint's path, auth, request
 * and response codecs with the contract's limits and rules, the business codes of every area,
 * the event and notification payloads, the endpoint table and the OpenAPI document.
 */
export * from "./account";
export * as c from "./codec";
export type { AnyCodec, AppOf, Codec, WireOf, WireSchema } from "./codec/codec";
export * from "./codes";
export * from "./endpoint";
export * from "./endpoint-table";
export * from "./events";
export * from "./issuing";
export { buildOpenApiDocument, openApiText } from "./openapi/build-openapi";
export * from "./payout";
export * from "./profit-share";

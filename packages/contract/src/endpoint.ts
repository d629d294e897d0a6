/**
 * One endpoint of the contract: core's transport definition (whose request schema is the
 * codec's encode side and whose response schema is the decode side of `data`) plus the codecs
 * themselves, so the sandbox can run the other direction, and a name and summary for the
 * endpoint table and the OpenAPI document.
 */
import type { Area, AuthKind } from "@merchantkit/core";
import type * as v from "valibot";
import { type AnyCodec, decodeWire, encodeWire } from "./codec/codec";
import { withRequestLimits } from "./codec/request-limits";
import type { CodeClassifier } from "./codes";

export interface EndpointDef {
  /** Stable name, `<area>.<wire name>`, e.g. "issuing.card.operate". */
  name: string;
  summary: string;
  area: Area;
  /** Path after the area's base URL, spelled as on the wire. */
  path: string;
  auth: AuthKind;
  kind: "read" | "write";
  request: AnyCodec;
  /** The envelope's `data`. */
  response: AnyCodec;
  idempotencyKey?: { field: string; maxLength: number };
  merchantNo?: boolean;
  onBehalfOf?: boolean;
  unsignedFields?: readonly string[];
  codes: CodeClassifier;
}

export type ContractEndpoint<D extends EndpointDef = EndpointDef> = Omit<
  D,
  "request" | "response"
> & {
  request: D["request"]["encode"];
  response: D["response"]["decode"];
  /** `v.safeParse(request, params)` through the codec's fast paths. */
  parseRequest: (params: unknown) => v.SafeParseResult<D["request"]["encode"]>;
  /**
   * `v.safeParse(response, data)` through the codec's fast paths; with `fresh`, `data` is owned
   * and may be decoded in place (decodeWire).
   */
  parseResponse: (
    data: unknown,
    fresh?: () => unknown,
  ) => v.SafeParseResult<D["response"]["decode"]>;
  requestCodec: D["request"];
  responseCodec: D["response"];
};

export function contractEndpoint<const D extends EndpointDef>(def: D): ContractEndpoint<D> {
  const { response, ...rest } = def;
  // Every request is held to the limits the service can take (request-limits.ts).
  const request = withRequestLimits(def.request);
  return {
    ...rest,
    request: request.encode,
    response: response.decode,
    parseRequest: (params: unknown) => encodeWire(request, params),
    parseResponse: (data: unknown, fresh?: () => unknown) => decodeWire(response, data, fresh),
    requestCodec: request,
    responseCodec: response,
  } as ContractEndpoint<D>;
}

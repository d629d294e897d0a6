/**
 * The one way an area client builds its transport, so every client refuses the same bad options
 * with the same ConfigurationError, at construction rather than on the first call: no options,
 * a missing apiKey, an empty merchantNo, an unknown environment, a malformed credential.
 */
import { ConfigurationError } from "../errors/local-errors";
import type { AuthStrategy } from "./auth";
import { type Area, resolveBaseUrl } from "./environment";
import { type ClientOptions, Transport, type TransportConfig } from "./transport";

export interface AreaTransportSpec<O extends ClientOptions> {
  /** The constructor as a merchant writes it, named when the options are missing. */
  usage: string;
  area: Area;
  /** The user-agent unless the options name one. */
  userAgent: string;
  /**
   * What the area's apiKey is ("the issuing ApiKey"), for an area that takes one: its absence
   * is named before anything else is checked.
   */
  apiKey?: string | undefined;
  /** The area takes `merchantNo` (filled into the calls that carry it); empty is refused. */
  merchantNo?: boolean | undefined;
  /** Options the client reads itself (credentials, area settings), kept out of the transport's. */
  own: readonly (keyof O & string)[];
  auth(options: O): AuthStrategy;
  /** Builds the transport from its checked config; a client that guards its calls gives its own. */
  transport?: ((config: TransportConfig) => Transport) | undefined;
}

export function createAreaTransport<O extends ClientOptions>(
  options: O,
  spec: AreaTransportSpec<O>,
): Transport {
  if (typeof options !== "object" || options === null) {
    throw new ConfigurationError(`${spec.usage} needs its options`);
  }
  const given = options as O & { apiKey?: unknown; merchantNo?: unknown };
  if (
    spec.apiKey !== undefined &&
    (typeof given.apiKey !== "string" || given.apiKey.length === 0)
  ) {
    throw new ConfigurationError(`apiKey is required: ${spec.apiKey} (a non-empty string)`);
  }
  const rest = { ...options } as Record<string, unknown>;
  for (const name of spec.own) delete rest[name];
  if (spec.merchantNo) {
    const { merchantNo } = given;
    if (merchantNo !== undefined && (typeof merchantNo !== "string" || merchantNo.length === 0)) {
      throw new ConfigurationError("merchantNo, when given, must be a non-empty string");
    }
    rest.merchantNo = merchantNo;
  }
  // A wrong environment is a ConfigurationError now, not on the first call.
  resolveBaseUrl(options.environment, spec.area);
  const config: TransportConfig = {
    ...rest,
    environment: options.environment,
    auth: spec.auth(options),
    userAgent: options.userAgent ?? spec.userAgent,
  };
  return spec.transport ? spec.transport(config) : new Transport(config);
}

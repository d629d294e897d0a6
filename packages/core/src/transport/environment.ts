/**
 * Where each area of the service lives. The service spreads its areas over several hosts and
 * path prefixes ({payout_url}, {base_url}/account-server, {base_url}/api/v1/merchant, {acq_url});
 * a client names an environment once and each area's base URL follows from it.
 */
import { ConfigurationError } from "../errors/local-errors";

export type Area = "payout" | "account" | "issuing" | "profitShare";

export const AREAS: readonly Area[] = ["payout", "account", "issuing", "profitShare"];

/** Path prefix of each area on its host; the sandbox serves all four on one origin with these. */
export const AREA_PREFIX: Readonly<Record<Area, string>> = {
  payout: "/payout",
  account: "/account-server",
  issuing: "/api/v1/merchant",
  profitShare: "",
};

/** Hosts from the provider's documentation (provider-notes §2, §4, §5; account: see assumptions). */
const HOSTS: Readonly<Record<"sandbox" | "production", Readonly<Record<Area, string>>>> = {
  sandbox: {
    payout: "https://sandbox-api.onerway.com",
    account: "https://sandbox-issuer.onerway.com",
    issuing: "https://sandbox-issuer.onerway.com",
    profitShare: "https://sandbox-acq.onerway.com",
  },
  production: {
    payout: "https://api.onerway.com",
    account: "https://issuer.onerway.com",
    issuing: "https://issuer.onerway.com",
    profitShare: "https://acq.onerway.com",
  },
};

/**
 * `"sandbox"` / `"production"`: the provider's hosts. `{ origin }`: one origin serving every area
 * under its standard prefix (the merchantkit sandbox, a proxy). Or explicit base URLs per area,
 * each including its prefix, for anything else.
 */
export type Environment =
  | "sandbox"
  | "production"
  | { origin: string }
  | Partial<Record<Area, string>>;

function trimSlash(url: string): string {
  return url.endsWith("/") ? url.slice(0, -1) : url;
}

function checkUrl(url: string, what: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== "https:" && parsed.protocol !== "http:") throw new Error("protocol");
  } catch {
    throw new ConfigurationError(`${what} must be an absolute http(s) URL`);
  }
  return trimSlash(url);
}

/** The base URL of `area` in `environment`; endpoint paths are appended to it. */
export function resolveBaseUrl(environment: Environment, area: Area): string {
  if (environment === "sandbox" || environment === "production") {
    return HOSTS[environment][area] + AREA_PREFIX[area];
  }
  if (typeof environment !== "object" || environment === null) {
    throw new ConfigurationError(
      'environment must be "sandbox", "production", { origin } or base URLs per area',
    );
  }
  if ("origin" in environment && typeof environment.origin === "string") {
    return checkUrl(environment.origin, "environment.origin") + AREA_PREFIX[area];
  }
  const url = (environment as Partial<Record<Area, string>>)[area];
  if (typeof url !== "string") {
    throw new ConfigurationError(`environment.${area} (the ${area} base URL) is not set`);
  }
  return checkUrl(url, `environment.${area}`);
}

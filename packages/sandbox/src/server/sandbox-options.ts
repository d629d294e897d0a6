/** The options of a sandbox: configuration overrides (merged over defaultConfig) and areas. */
import type { AreaFactory } from "../runtime/area";
import { defaultConfig, type SandboxConfig } from "../runtime/config";

export type SandboxOptions = Partial<Omit<SandboxConfig, "webhookUrls">> & {
  webhookUrls?: SandboxConfig["webhookUrls"];
  /** The areas to simulate; the four of the service by default (tests may pass their own). */
  areas?: readonly AreaFactory[];
};

/** defaultConfig() with the given fields replaced (webhookUrls merged per kind). */
export function resolveConfig(options: SandboxOptions = {}): SandboxConfig {
  const base = defaultConfig();
  const { areas: _areas, ...overrides } = options as SandboxOptions & Record<string, unknown>;
  const config: SandboxConfig = { ...base };
  for (const [key, value] of Object.entries(overrides)) {
    if (value !== undefined && key in base)
      (config as unknown as Record<string, unknown>)[key] = value;
  }
  config.webhookUrls = { ...base.webhookUrls, ...options.webhookUrls };
  config.children = [...config.children];
  config.balances = { ...config.balances };
  return config;
}

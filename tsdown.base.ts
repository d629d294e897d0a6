/**
 * The one build configuration every package uses: ESM for Node 20 with .d.ts and source maps.
 * A package's tsdown.config.ts only names its entry points.
 */
import { defineConfig, type UserConfig } from "tsdown";

export function libraryConfig(entry: UserConfig["entry"]): UserConfig {
  return defineConfig({
    entry,
    format: "esm",
    platform: "node",
    target: "node20",
    dts: true,
    clean: true,
    sourcemap: true,
  });
}

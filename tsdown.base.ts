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
    // Declarations from `tsc -b` (the references built first), as `pnpm typecheck` makes them:
    // emitted without it, from a clone that was never type-checked, @merchantkit/contract's
    // .d.mts imported `JsonNumber as JsonNumber$1` from core yet named `JsonNumber` 67 times,
    // and every merchant's tsc without skipLibCheck failed (a release packs from such a build).
    dts: { build: true },
    clean: true,
    sourcemap: true,
  });
}

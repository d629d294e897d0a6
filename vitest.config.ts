import { defineConfig } from "vitest/config";

// Tests run from source: the "@merchantkit/source" export condition points every workspace
// package at its src/index.ts, so no build is needed before `pnpm test`.
const conditions = ["@merchantkit/source", "module", "node", "development|production"];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: conditions } },
  test: {
    include: ["packages/*/src/**/*.test.ts", "apps/*/src/**/*.test.ts", "scripts/**/*.test.ts"],
    maxWorkers: 2,
    // A PGlite test opens its own database (~2 s, migrations included) and runs syncs and
    // matches in WASM on the test's own thread: 5-8 s on an idle 2-core machine, past 20 s when
    // the machine is shared. A hang still fails, after a minute.
    testTimeout: 60_000,
  },
});

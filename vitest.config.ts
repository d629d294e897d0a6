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
    testTimeout: 20_000,
  },
});

/** Test helpers: `import { startTestServer } from "@merchantkit/core/testing"`. */
export * from "./test-server";

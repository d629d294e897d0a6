/** Test helpers: `import { startTestServer } from "@merchantkit/core/testing"`. */

export * from "./refused-before-sending";
export * from "./test-server";

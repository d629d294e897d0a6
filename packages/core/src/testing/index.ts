/** Test helpers: `import { startTestServer } from "@merchantkit/core/testing"`. */
export * from "./test-server";
export { withoutFastPaths } from "./without-fast-paths";

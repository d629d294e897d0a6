import { libraryConfig } from "../../tsdown.base";

export default libraryConfig({
  index: "src/index.ts",
  client: "src/client-surface.ts",
  internal: "src/internal.ts",
  "testing/index": "src/testing/index.ts",
});

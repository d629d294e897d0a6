import { libraryConfig } from "../../tsdown.base";

export default libraryConfig({ index: "src/index.ts", cli: "src/cli/main.ts" });

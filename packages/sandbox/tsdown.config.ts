import { libraryConfig } from "../../tsdown.base";

export default libraryConfig({ index: "src/index.ts", bin: "src/bin.ts" });

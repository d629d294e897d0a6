import { libraryConfig } from "../../tsdown.base";

export default libraryConfig({ index: "src/index.ts" });

import { libraryConfig } from "../../tsdown.base";

export default libraryConfig(["src/index.ts"]);

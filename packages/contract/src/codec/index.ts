/** Codec combinators: `import * as c from "../codec"` in every area file. */
export * from "./codec";
export * from "./scalars";
export * from "./structures";

/** Codec combinators: `import * as c from "../codec"` in every area file. */
export * from "./codec";
export { type TextPath, textOf } from "./encode-text";
export * from "./scalars";
export * from "./structures";

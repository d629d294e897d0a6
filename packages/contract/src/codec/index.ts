/** Codec combinators: `import * as c from "../codec"` in every area file. */
export * from "./codec";
export { encodeText, type TextPath, textOf } from "./encode-text";
export { type FastPath, isPlainObject, MISS, type Miss } from "./fast-path";
export * from "./request-limits";
export * from "./scalars";
export * from "./structures";

/**
 * What a leaf codec's fast path or text path does, so a compiled object walk can write it
 * inline instead of calling it: two calls per field were about a third of a page's work.
 * Only plain leaves are described (strings with length limits and no pattern, integers within
 * bounds, closed enums) and optional / nullable around them; ids, amounts and anything else are
 * called as functions. The statements mirror the functions exactly: the fast-paths test
 * compares every object's output with the schemas' on generated values.
 */
export interface InlineLeaf {
  kind: "string" | "integer" | "enum";
  min?: number;
  max?: number;
  /** Closed enums: each value and its JSON text. */
  texts?: ReadonlyMap<unknown, string>;
  /** undefined is absent (and written as nothing). */
  optional?: boolean;
  /** Reading a response: null is absent too. */
  nullAsAbsent?: boolean;
  /** null stays null. */
  nullable?: boolean;
}

const INLINE = Symbol("merchantkit.inlineLeaf");

/** `fn` (a fast path or text path), marked with what it does. */
export function withInline<F extends (input: unknown) => unknown>(fn: F, leaf: InlineLeaf): F {
  return Object.assign(fn, { [INLINE]: leaf });
}

export function inlineOf(fn: (input: unknown) => unknown): InlineLeaf | undefined {
  return (fn as { [INLINE]?: InlineLeaf })[INLINE];
}

/** `fn` marked like `inner` plus `more` (optional, nullable), when `inner` is marked. */
export function aroundInline<F extends (input: unknown) => unknown>(
  fn: F,
  inner: (input: unknown) => unknown,
  more: Partial<InlineLeaf>,
): F {
  const leaf = inlineOf(inner);
  return leaf ? withInline(fn, { ...leaf, ...more }) : fn;
}

// The test a leaf's value must pass, over `v`; `i` names the field's enum map.
function test(leaf: InlineLeaf, i: number): string {
  const min = leaf.min ?? (leaf.kind === "string" ? 0 : Number.NEGATIVE_INFINITY);
  const max = leaf.max ?? Number.POSITIVE_INFINITY;
  if (leaf.kind === "string") {
    return `typeof v === "string" && v.length >= ${min} && v.length <= ${max}`;
  }
  if (leaf.kind === "integer") return `Number.isInteger(v) && v >= ${min} && v <= ${max}`;
  return `enums[${i}].has(v)`;
}

function around(leaf: InlineLeaf, target: string, inner: string): string {
  let out = inner;
  if (leaf.nullable)
    out = `if (v === null) ${target} = ${target === "t" ? '"null"' : "null"}; else { ${out} }`;
  if (leaf.optional) {
    const absent = leaf.nullAsAbsent ? "v === undefined || v === null" : "v === undefined";
    out = `if (${absent}) ${target} = undefined; else { ${out} }`;
  }
  return out;
}

/** Statements leaving the value of `v` in `value`, or returning MISS. */
export function inlineValueStatements(leaf: InlineLeaf, i: number): string {
  return around(leaf, "value", `if (!(${test(leaf, i)})) return MISS; value = v;`);
}

/**
 * Statements leaving the JSON text of `v` in `t`, or returning MISS. A string that needs no
 * escaping is written straight after its key instead (`keyQuote`: the code of an expression
 * giving the key's text up to the value's opening quote), leaving `t` undefined: one string
 * joined per field rather than three.
 */
export function inlineTextStatements(leaf: InlineLeaf, i: number, keyQuote: string): string {
  const check = `if (!(${test(leaf, i)})) return MISS;`;
  const write =
    leaf.kind === "string"
      ? `${check} if (needsEscape.test(v)) t = JSON.stringify(v); else { out += ${keyQuote} + v + '"'; t = undefined; }`
      : `${check} t = ${leaf.kind === "integer" ? '"" + v' : `enums[${i}].get(v)`};`;
  return around(leaf, "t", write);
}

/**
 * The root of every error merchantkit throws. Identity checks go through `Symbol.for` markers
 * rather than `instanceof`, because independently versioned packages can leave two copies of
 * core in one node_modules, and an error built by one copy must still be recognised by the other.
 */
const MARKER = Symbol.for("merchantkit.error");

export type ErrorMarked = { readonly [key: symbol]: unknown };

/** Sets the per-class marker on a prototype; subclasses inherit their parents' markers. */
export function markErrorClass(cls: { prototype: object }, name: string): void {
  Object.defineProperty(cls.prototype, Symbol.for(`merchantkit.error.${name}`), { value: true });
}

/** True when `error` carries the marker of the class called `name` (or of a subclass of it). */
export function hasErrorMarker(error: unknown, name: string): boolean {
  return (
    typeof error === "object" &&
    error !== null &&
    (error as ErrorMarked)[Symbol.for(`merchantkit.error.${name}`)] === true
  );
}

export class MerchantkitError extends Error {
  override readonly name: string = "MerchantkitError";
  /**
   * Set on an error that ended a list's iteration (`for await`, `pages()`) after its first
   * page: the page that failed (1-based). The message names it too.
   */
  declare readonly pageNum?: number;
  /** With `pageNum`: how many records the iteration had yielded before that page failed. */
  declare readonly recordsYielded?: number;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }

  /**
   * What `JSON.stringify(error)` writes (a structured logger, an error report): the name, the
   * message, the code where the error has one, and the error's own public fields — bodies and
   * texts already redacted when the error was made. Not the stack, and not `cause`, which can
   * hold what the SDK never shows (a fetch's Request, whose headers carry the API key).
   */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { name: this.name, message: this.message };
    if ("code" in this) out.code = this.code;
    for (const [key, value] of Object.entries(this)) {
      if (key !== "cause" && key !== "stack" && !(key in out)) out[key] = value;
    }
    return out;
  }
}
Object.defineProperty(MerchantkitError.prototype, MARKER, { value: true });
markErrorClass(MerchantkitError, "MerchantkitError");

export function isMerchantkitError(error: unknown): error is MerchantkitError {
  return hasErrorMarker(error, "MerchantkitError");
}

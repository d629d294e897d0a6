// "Inner-first" JSON text of a nested parameter, as the provider's signature rule builds it:
// inner objects and arrays become JSON strings first, then the outer value is stringified.
import { isJsonNumber } from "../json/json-number";
import { stringifyJson } from "../json/stringify-json";

/**
 * JSON text of an object or array parameter, built inner-first: in an object, every property
 * that is itself an object or array is replaced by its own inner-first JSON text (a string);
 * in an array, object elements are normalised the same way but stay objects. So
 * `{appId:"app", products:[{price:"5.00"}]}` gives
 * `{"appId":"app","products":"[{\"price\":\"5.00\"}]"}`. JsonNumbers keep their digits.
 */
export function innerFirstJson(value: object): string {
  return stringifyJson(normalise(value, ""));
}

function normalise(input: unknown, key: string): unknown {
  const value = resolveToJSON(input, key);
  if (Array.isArray(value)) return value.map((item, index) => normalise(item, String(index)));
  if (isContainer(value)) {
    const out: Record<string, unknown> = {};
    for (const [name, item] of Object.entries(value)) {
      const resolved = resolveToJSON(item, name);
      const normalised = isContainer(resolved) ? innerFirstJson(resolved) : resolved;
      // defineProperty: a "__proto__" key must stay a key, not become the prototype.
      Object.defineProperty(out, name, {
        value: normalised,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value;
}

// Dates and other toJSON values are signed as what they turn into on the wire.
function resolveToJSON(value: unknown, key: string): unknown {
  if (typeof value !== "object" || value === null || isJsonNumber(value)) return value;
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  return typeof toJSON === "function" ? toJSON.call(value, key) : value;
}

function isContainer(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !isJsonNumber(value);
}

// Column types shared by the reconciler's tables: the raw payload as jsonb read back as text.
import { customType } from "drizzle-orm/pg-core";

/**
 * A jsonb column whose TypeScript value is the JSON text. Postgres keeps the document (numbers
 * as numeric, so 64-bit ids and "0.10" keep their digits); reading it never goes through
 * JSON.parse, which would round 1953712585351499776. Parse the text with @merchantkit/core's
 * parseJson when the structure is needed. openDatabase() sets the drivers' jsonb parser to
 * "keep the text"; a value that arrives already parsed means the database was opened another
 * way, and is refused rather than silently rounded.
 */
export const jsonbText = customType<{ data: string; driverData: string }>({
  dataType() {
    return "jsonb";
  },
  toDriver(value) {
    return value;
  },
  fromDriver(value) {
    if (typeof value !== "string")
      throw new TypeError(
        "a jsonb value arrived parsed (64-bit numbers may have lost digits): open the database with openDatabase()",
      );
    return value;
  },
});

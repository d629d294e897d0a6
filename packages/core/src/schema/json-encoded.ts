// Schemas for fields the wire carries as JSON text inside a string (receiverInfo, address,
// accountInfomation, receivers): typed objects in the SDK, encoded going out, decoded coming in.
import * as v from "valibot";
import { parseJson } from "../json/parse-json";
import { stringifyJson } from "../json/stringify-json";

/**
 * Request side: accepts a value matching `schema` and outputs its JSON text (stringifyJson of
 * the schema's output, so ids and amounts that became JsonNumbers are written digit for digit).
 */
export function jsonEncoded<TSchema extends v.GenericSchema>(schema: TSchema) {
  return v.pipe(
    schema,
    v.rawTransform<v.InferOutput<TSchema>, string>(({ dataset, addIssue, NEVER }) => {
      try {
        return stringifyJson(dataset.value);
      } catch (error) {
        addIssue({ message: `cannot be JSON-encoded: ${(error as Error).message}` });
        return NEVER;
      }
    }),
  );
}

/**
 * Response side: accepts a string of JSON text, parses it losslessly (parseJson), validates
 * the result with `schema` and outputs it. An already-decoded value is accepted as well, in
 * case the provider sends the object itself. Text that is not JSON gives the issue
 * "must be a JSON-encoded object" (or array).
 */
export function jsonDecoded<TSchema extends v.GenericSchema>(schema: TSchema) {
  const what = describeSchema(schema);
  return v.pipe(
    v.custom<string | v.InferInput<TSchema>>(() => true),
    v.rawTransform<string | v.InferInput<TSchema>, v.InferInput<TSchema>>(
      ({ dataset, addIssue, NEVER }) => {
        const input = dataset.value;
        if (typeof input !== "string") return input;
        try {
          return parseJson(input) as v.InferInput<TSchema>;
        } catch {
          addIssue({ message: `must be a JSON-encoded ${what}` });
          return NEVER;
        }
      },
    ),
    schema,
  );
}

function describeSchema(schema: v.GenericSchema): string {
  if (schema.type.includes("array") || schema.type.includes("tuple")) return "array";
  if (schema.type.includes("object") || schema.type === "record") return "object";
  return "value";
}

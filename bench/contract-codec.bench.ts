/**
 * The contract's codecs on one 100-record issuing queryTxnList page (64-bit cardIds, amounts
 * such as 100.10, null fees): decode (the client reading a page it parsed with parseJson) next
 * to a plain JSON.parse of the same page, and encode (the sandbox writing a page as JSON text)
 * next to a plain JSON.stringify of the same page. The ratios say what validation and lossless
 * numbers cost on top of the platform's JSON.
 */

import { c } from "../packages/contract/src/index";
import { queryTxnList } from "../packages/contract/src/issuing/query-txn-list";
import { parseJson } from "../packages/core/src/json/parse-json";
import { stringifyJson } from "../packages/core/src/json/stringify-json";
import { compare } from "./harness";
import { queryTxnListBody } from "./json-sign.bench";

// Through Standard Schema (valibot's `~standard`), so the bench needs no valibot import.
function parse(schema: { "~standard": { validate(value: unknown): unknown } }, value: unknown) {
  const result = schema["~standard"].validate(value) as { value?: unknown; issues?: unknown };
  if (result.issues) throw new Error("validation failed");
  return result.value;
}

const codec = queryTxnList.responseCodec;

function decodePage(wire: unknown): unknown {
  const result = c.decodeWire(codec, wire);
  if (!result.success) throw new Error("the page did not decode");
  return result.output;
}

function encodePage(app: unknown): string {
  const result = c.encodeText(codec, app);
  if (!result.success) throw new Error("the page did not encode");
  return result.text;
}

function encodeThenWrite(app: unknown): string {
  const result = c.encodeWire(codec, app);
  if (!result.success) throw new Error("the page did not encode");
  return stringifyJson(result.output);
}

export async function run(): Promise<void> {
  const body = queryTxnListBody(100);
  const wire = (parseJson(body) as { data: unknown }).data;
  const dataText = stringifyJson(wire);
  const app = decodePage(wire);
  const plain = JSON.parse(dataText) as unknown;
  // Optional fields the service sent as null are absent in the SDK value, so left out here.
  if (
    encodePage(app) !== stringifyJson(parse(codec.encode, app)) ||
    encodeThenWrite(app) !== encodePage(app)
  )
    throw new Error("the fast path and the schema encode the page differently");

  console.log(
    `queryTxnList page data: 100 records, ${dataText.length.toLocaleString("en-US")} bytes`,
  );
  await compare({
    title: "decode a 100-record card transaction page",
    unit: "page",
    baseline: { name: "JSON.parse of the page text", fn: () => JSON.parse(dataText) },
    candidates: [
      { name: "decode (parsed page → SDK value)", fn: () => decodePage(wire) },
      { name: "decode by the schema alone", fn: () => parse(queryTxnList.response, wire) },
      {
        name: "parseJson + decode",
        fn: () => decodePage(parseJson(dataText)),
      },
      {
        // What the transport does: the freshly parsed page is owned, so decoded in place.
        name: "parseJson + decode in place (the client's path)",
        fn: () => {
          const result = c.decodeWire(codec, parseJson(dataText), () => parseJson(dataText));
          if (!result.success) throw new Error("the page did not decode");
        },
      },
    ],
  });
  await compare({
    title: "encode a 100-record card transaction page",
    unit: "page",
    baseline: { name: "JSON.stringify of the page", fn: () => JSON.stringify(plain) },
    candidates: [
      { name: "encode to text (what the sandbox sends)", fn: () => encodePage(app) },
      { name: "encode, then stringifyJson", fn: () => encodeThenWrite(app) },
      {
        name: "encode by the schema alone, then stringifyJson",
        fn: () => stringifyJson(parse(codec.encode, app)),
      },
    ],
  });
}

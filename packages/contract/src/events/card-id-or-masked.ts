/** cardId of a card transaction event: a 64-bit card id, or a masked card number. */
import { idFromWire, JsonNumber } from "@merchantkit/core";
import * as v from "valibot";
import type { Codec } from "../codec/codec";

// A card id as the wire writes it: digits without leading zeros (a bare JSON number).
const WIRE_ID = /^(?:0|[1-9]\d*)$/;

const text = v.pipe(
  v.string("must be a card id or a masked card number"),
  v.nonEmpty("must not be empty"),
);

/**
 * In card transaction events cardId may be a masked card number such as "411111******1111"
 * instead of the card's id. Read: a JSON number or a digit string becomes the digit string, any
 * other non-empty string (the masked number) is kept as it is. Write: a card id goes out as a
 * bare JSON number, a masked number as a string. Local codec: the shared combinators have no
 * "id or text" form.
 */
export function cardIdOrMasked(): Codec<string, JsonNumber | string> {
  const decode = v.union([idFromWire(), text], "must be a card id or a masked card number");
  const encode = v.pipe(
    text,
    v.transform((value): JsonNumber | string =>
      WIRE_ID.test(value) ? new JsonNumber(value) : value,
    ),
  );
  return {
    decode: decode as v.GenericSchema<unknown, string>,
    encode: encode as v.GenericSchema<string, JsonNumber | string>,
    wire: {
      anyOf: [
        { type: "integer", format: "int64" },
        { type: "string", description: "masked card number, e.g. 411111******1111" },
      ],
    },
  };
}

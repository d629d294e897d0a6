/** cardId of a card transaction event: a 64-bit card id, or a masked card number. */
import { idFromWire, JsonNumber } from "@merchantkit/core";
import * as v from "valibot";
import type { Codec } from "../codec/codec";

// A card id as the wire writes it: digits without leading zeros (a bare JSON number).
const WIRE_ID = /^(?:0|[1-9]\d*)$/;

const RULE = 'must be a 64-bit card id or a masked card number such as "411111******1111"';

/**
 * A masked card number: at most the first 6 and the last 4 digits shown, the rest as `*`.
 * Nothing else is read as one, so a pushed cardId of "abc" or of free text is refused.
 */
export const MASKED_CARD_NUMBER = /^\d{0,6}\*{3,13}\d{0,4}$/;

const text = v.pipe(v.string(RULE), v.regex(MASKED_CARD_NUMBER, RULE));

/**
 * In card transaction events cardId may be a masked card number such as "411111******1111"
 * instead of the card's id. Read: a JSON number or a digit string becomes the digit string (as
 * the query's `id()` reads it, with no range check: a push is read as leniently as a query
 * answer), a masked number is kept as it is, anything else is refused. Write: a card id goes out as a
 * bare JSON number, a masked number as a string. Local codec: the shared combinators have no
 * "id or text" form.
 */
export function cardIdOrMasked(): Codec<string, JsonNumber | string> {
  const decode = v.union([idFromWire(), text], RULE);
  const encode = v.pipe(
    v.string(RULE),
    v.check((value) => WIRE_ID.test(value) || MASKED_CARD_NUMBER.test(value), RULE),
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
        {
          type: "string",
          pattern: MASKED_CARD_NUMBER.source,
          description: "masked card number, e.g. 411111******1111",
        },
      ],
    },
  };
}

import { JsonNumber, parseJson, stringifyJson } from "@merchantkit/core";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import * as c from "./index";

describe("amount codecs", () => {
  // A debit of zero ("-0.00", an account fee reversed to nothing) is still a debit: lossless
  // means the sign's text too, on both paths (fast and schema) and in both directions.
  const string = c.amountString({ sign: "any" });
  const number = c.amountNumber({ sign: "any" });
  const amounts = [string, c.amountString(), number, c.amountNumber()];

  it("reads a negative zero with its sign, however the wire writes it", () => {
    const wire = parseJson('[-0.00, "-0.00", -0, "-0", -0.0e1, -0]') as unknown[];
    wire[5] = -0; // a JS -0 (JSON.parse's), not parseJson's JsonNumber
    const expected = ["-0.00", "-0.00", "-0", "-0", "-0", "-0"];
    for (const amount of amounts) {
      expect(wire.map((x) => c.decodeWire(amount, x).output)).toEqual(expected);
      expect(wire.map((x) => v.parse(amount.decode, x))).toEqual(expected);
    }
    // The sign of a non-zero amount and an unsigned zero stay as they were.
    expect(v.parse(string.decode, parseJson("0.00"))).toBe("0.00");
    expect(v.parse(string.decode, parseJson("-1.5e1"))).toBe("-15");
  });

  it("writes a negative zero with its sign", () => {
    expect(c.encodeWire(string, "-0.00").output).toBe("-0.00");
    expect(v.parse(string.encode, "-0.00")).toBe("-0.00");
    expect(c.encodeText(string, "-0.00")).toEqual({ success: true, text: '"-0.00"' });
    expect(stringifyJson(c.encodeWire(number, "-0.00").output)).toBe("-0.00");
    expect(v.parse(number.encode, "-0")).toEqual(new JsonNumber("-0"));
    expect(c.encodeText(number, "-0.00")).toEqual({ success: true, text: "-0.00" });
  });
});

describe("calendar strings", () => {
  const date = c.calendarString("date");
  const dateTime = c.calendarString("dateTime");
  /** The rules a value breaks, by every path a request goes out through. */
  const broken = (codec: typeof date, value: string) => {
    const schema = v.safeParse(codec.encode, value).issues?.map((i) => i.message) ?? [];
    expect(c.encodeWire(codec, value).success).toBe(schema.length === 0);
    expect(c.encodeText(codec, value).success).toBe(schema.length === 0);
    return schema;
  };

  it("refuses dates the calendar does not have and times out of range, naming the rule", () => {
    const exists = "must be a time that exists (a day the month has, 00:00:00 to 23:59:59)";
    for (const value of [
      "2026-02-30 00:00:00",
      "2026-02-31 25:61:61",
      "2026-02-29 12:00:00",
      "2026-04-31 12:00:00",
      "2026-13-01 00:00:00",
      "2026-00-10 00:00:00",
      "2026-01-00 00:00:00",
      "2026-01-01 24:00:00",
      "2026-01-01 23:60:00",
      "2026-01-01 23:59:60",
    ])
      expect(broken(dateTime, value), value).toEqual([exists]);
    expect(broken(date, "1990-02-30")).toEqual([
      "must be a date that exists (a day the month has)",
    ]);
    expect(broken(date, "1990-11-31")).toHaveLength(1);
  });

  it("takes the dates and times that exist, leap days included, and names the shape alone when it is wrong", () => {
    for (const value of [
      "2026-01-31 23:59:59",
      "2024-02-29 00:00:00",
      "2000-02-29 12:30:00",
      "2026-12-31 00:00:00",
    ])
      expect(broken(dateTime, value), value).toEqual([]);
    expect(broken(date, "1990-02-28")).toEqual([]);
    expect(broken(date, "2024-02-29")).toEqual([]);
    expect(broken(date, "1900-02-29")).toHaveLength(1);
    expect(broken(dateTime, "2026-02-30")).toEqual([
      "must be a time in the form YYYY-MM-DD HH:mm:ss",
    ]);
    expect(broken(date, "30/02/1990")).toEqual(["must be a date in the form YYYY-MM-DD"]);
  });
});

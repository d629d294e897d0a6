// The ledger CSV reader and row checks: quoting, line numbers, and the reasons a row is refused.
import { describe, expect, it } from "vitest";
import { readCsv } from "./csv";
import { normalizeTime } from "./ledger-row";
import { parseLedger } from "./parse-ledger";

const HEADER = "entry_id,kind,provider_ref,amount,currency,booked_at,fee_type,card_id,description";

describe("readCsv", () => {
  it("reads quoted fields with commas, doubled quotes and line breaks, keeping start lines", () => {
    const text = `a,b\r\n"x, y","say ""hi"""\n"two\nlines",z\n\nlast,row`;
    expect([...readCsv(text)]).toEqual([
      { line: 1, fields: ["a", "b"] },
      { line: 2, fields: ["x, y", 'say "hi"'] },
      { line: 3, fields: ["two\nlines", "z"] },
      { line: 6, fields: ["last", "row"] },
    ]);
  });

  it("names the physical start line after quoted CRLF and CR line breaks", () => {
    // csv-parse alone counts a quoted CRLF as two lines, shifting every later record by one.
    expect(readCsv('h\r\n"a\r\nb"\r\nc\r\n"d\re"\r\nf').map((r) => r.line)).toEqual([
      1, 2, 4, 5, 7,
    ]);
  });

  it("refuses an unterminated quote with the line it started on", () => {
    expect(() => [...readCsv('a,b\n"open,b\nc,d')]).toThrow(
      /line 2: a quoted field is never closed/,
    );
  });
});

describe("parseLedger", () => {
  it("reads entries with optional columns in any order and normalises amounts and times", () => {
    const parsed = parseLedger(
      "currency,amount,entry_id,kind,provider_ref,booked_at\nUSD,+12.50,E1,card_transaction,T1,2026-05-01T10:00:00+02:00\nEUR,-0.10,E2,account,99,2026-05-02\n",
    );
    expect(parsed.errors).toEqual([]);
    expect(parsed.entries.map((e) => e.entry)).toEqual([
      expect.objectContaining({
        entryId: "E1",
        amount: "12.50",
        bookedAt: "2026-05-01T08:00:00.000Z",
      }),
      expect.objectContaining({
        entryId: "E2",
        amount: "-0.10",
        bookedAt: "2026-05-02T00:00:00.000Z",
      }),
    ]);
  });

  it("names the line and the reason of every bad row", () => {
    const text = [
      HEADER,
      "E1,card_transaction,T1,-12.50,USD,2026-05-01T10:00:00Z,,,ok",
      "E2,card_transaction,T2,-12,50,USD,2026-05-01T10:00:00Z,,,",
      "E3,card_txn,T3,-1.00,USD,2026-05-01T10:00:00Z,,,",
      "E4,card_transaction,T4,1.0e3,USD,2026-05-01T10:00:00Z,,,",
      "E5,card_transaction,T5,-1.00,usd,2026-05-01T10:00:00Z,,,",
      "E6,card_transaction,T6,-1.00,USD,2026-02-30,,,",
      "E7,fee,T7,-1.00,USD,2026-05-01T10:00:00Z,,,",
      "E8,card_transaction,T8,-1.00,USD,2026-05-01T10:00:00Z,EXCHANGE,,",
      "E1,card_transaction,T9,-1.00,USD,2026-05-01T10:00:00Z,,,",
      ",card_transaction,T10,-1.00,USD,2026-05-01T10:00:00Z,,,",
    ].join("\n");
    const { errors } = parseLedger(text);
    expect(errors).toEqual([
      { line: 3, reason: "10 fields where the header has 9" },
      { line: 4, reason: expect.stringMatching(/^kind "card_txn" is not one of/) },
      { line: 5, reason: expect.stringMatching(/^amount "1.0e3" is not a signed decimal/) },
      { line: 6, reason: expect.stringMatching(/^currency "usd"/) },
      { line: 7, reason: expect.stringMatching(/^booked_at "2026-02-30" is not an ISO 8601/) },
      { line: 8, reason: "fee_type is required when kind is fee" },
      { line: 9, reason: expect.stringMatching(/^fee_type is only allowed when kind is fee/) },
      { line: 10, reason: 'entry_id "E1" already appears on line 2' },
      { line: 11, reason: "entry_id is empty" },
    ]);
  });

  it("refuses a header with unknown or missing columns", () => {
    expect(parseLedger("entry_id,kind,ref,amount,currency,booked_at\n").errors).toEqual([
      {
        line: 1,
        reason: expect.stringMatching(/missing column\(s\) provider_ref; unknown column\(s\) ref/),
      },
    ]);
    expect(parseLedger("").errors).toEqual([{ line: 1, reason: "the file is empty (no header)" }]);
  });

  it("checks times for real calendar dates and zones", () => {
    expect(normalizeTime("2024-02-29T23:59:59.5Z")).toBe("2024-02-29T23:59:59.500Z");
    expect(normalizeTime("2025-02-29")).toBeUndefined();
    expect(normalizeTime("2026-05-01T24:00:00Z")).toBeUndefined();
    expect(normalizeTime("2026-05-01T10:00-0530")).toBe("2026-05-01T15:30:00.000Z");
    expect(normalizeTime("yesterday")).toBeUndefined();
    // Postgres has no year 0000, and refuses the "+010000-…" JS writes for year 10000: both
    // are bad rows here, checked after the offset moves the time into another year.
    expect(normalizeTime("0001-01-01T00:00:00Z")).toBe("0001-01-01T00:00:00.000Z");
    expect(normalizeTime("0000-06-01")).toBeUndefined();
    expect(normalizeTime("0001-01-01T00:30:00+01:00")).toBeUndefined();
    expect(normalizeTime("9999-12-31T18:59:59-05:00")).toBe("9999-12-31T23:59:59.000Z");
    expect(normalizeTime("9999-12-31T23:00:00-05:00")).toBeUndefined();
  });

  it("names the physical line of each row after a quoted CRLF in a CRLF file", () => {
    const text = `${[
      HEADER, // line 1
      'A,card_transaction,T1,-1.00,USD,2026-05-01,,,"two\r\nlines"', // lines 2-3
      "B,card_transaction,T2,1e2,USD,2026-05-01,,,", // line 4
      "A,card_transaction,T3,-1.00,USD,2026-05-01,,,", // line 5
    ].join("\r\n")}\r\n`;
    expect(parseLedger(text).errors).toEqual([
      { line: 4, reason: expect.stringContaining('amount "1e2"') },
      { line: 5, reason: 'entry_id "A" already appears on line 2' },
    ]);
  });

  it("names a row repeating the entry_id of a bad row in the same refusal", () => {
    const text = `${[
      HEADER,
      "E1,card_transaction,T1,1e2,USD,2026-05-01,,,", // line 2: bad amount
      "E1,card_transaction,T2,-2.00,USD,2026-05-01,,,", // line 3: repeats E1
      "E2,card_transaction,T3,2e2,USD,2026-05-01,,,", // line 4: bad
      "E2,card_transaction,T4,3e2,USD,2026-05-01,,,", // line 5: bad and repeats E2
    ].join("\n")}\n`;
    expect(parseLedger(text).errors).toEqual([
      { line: 2, reason: expect.stringContaining('amount "1e2"') },
      { line: 3, reason: 'entry_id "E1" already appears on line 2' },
      { line: 4, reason: expect.stringContaining('amount "2e2"') },
      {
        line: 5,
        reason: expect.stringMatching(/^amount "3e2".*; entry_id "E2" already appears on line 4$/),
      },
    ]);
  });

  it("refuses control characters Postgres cannot store, keeping line breaks in a description", () => {
    const row = (description: string) =>
      `${HEADER}\nA,card_transaction,T1,-1.00,USD,2026-05-01,,,"${description}"\n`;
    expect(parseLedger(row("x\u0000y")).errors).toEqual([
      {
        line: 2,
        reason: expect.stringMatching(/^description holds the control character U\+0000/),
      },
    ]);
    expect(parseLedger(row("a\u0007b")).errors).toHaveLength(1);
    expect(parseLedger(row("tab\there,\r\nnext line")).errors).toEqual([]);
    expect(
      parseLedger(`${HEADER}\nA\u0000,card_transaction,T1,-1.00,USD,2026-05-01,,,\n`).errors,
    ).toEqual([
      { line: 2, reason: expect.stringMatching(/^entry_id holds the control character/) },
    ]);
  });
});

// Card numbers never reach a log, an error or a stored row: a bad value is quoted in the
// reason, which goes to the cycle's summary line, ledger_files.reason and <name>.reason.txt.
describe("card numbers in ledger rows", () => {
  const PAN_RUN = /\d(?:[ -]?\d){12,}/;

  it("masks a card number in every parse error, keeping the field, the rule and the line", () => {
    const text = [
      HEADER,
      "P1,card_transaction,TP1,-1.00,USD,2026-11-20,,4111 1111 1111 1111,x",
      "P2,card_transaction,TP2,4111111111111111.00.,USD,2026-11-20,,,x",
      "P3,account,4111-1111-1111-1111,1.00,USD,2026-11-20,,,x",
      "P4,4111111111111111,TP4,-1.00,USD,2026-11-20,,,x",
      "P5,card_transaction,TP5,-1.00,5555555555554444,2026-11-20,,,x",
      "P6,card_transaction,TP6,-1.00,USD,5555 5555 5555 4444,,,x",
      "P7,fee,TP7,-1.00,USD,2026-11-20,FEE 4111111111111111,,x",
      "4111111111111111,card_transaction,TP8,-1.00,USD,2026-11-20,,,x",
      "4111111111111111,card_transaction,TP9,-1.00,USD,2026-11-20,,,x",
      "P10,account,x4111111111111111111111111111111111111111,1.00,USD,2026-11-20,,,x",
    ].join("\n");
    const { errors } = parseLedger(text);
    expect(errors).toEqual([
      { line: 2, reason: 'card_id "[REDACTED]" is not a card id (digits)' },
      {
        line: 3,
        reason: expect.stringMatching(/^amount "\[REDACTED\]\.00\." is not a signed decimal/),
      },
      { line: 4, reason: expect.stringMatching(/^provider_ref "\[REDACTED\]" is not a serviceId/) },
      { line: 5, reason: expect.stringMatching(/^kind "\[REDACTED\]" is not one of card_/) },
      { line: 6, reason: expect.stringMatching(/^currency "\[REDACTED\]" is not a three-letter/) },
      { line: 7, reason: expect.stringMatching(/^booked_at "\[REDACTED\]" is not an ISO 8601/) },
      { line: 8, reason: expect.stringMatching(/^fee_type "FEE \[REDACTED\]" must be upper-case/) },
      { line: 10, reason: 'entry_id "[REDACTED]" already appears on line 9' },
      {
        line: 11,
        reason: expect.stringMatching(/^provider_ref "x\[REDACTED\]" is not a serviceId/),
      },
    ]);
    for (const e of errors) expect(e.reason).not.toMatch(PAN_RUN);
  });

  it("masks a card number in a header error", () => {
    const header = parseLedger(`${HEADER},4111111111111111\n`).errors;
    expect(header).toEqual([
      { line: 1, reason: expect.stringMatching(/^header: unknown column\(s\) \[REDACTED\] \(/) },
    ]);
    for (const e of header) expect(e.reason).not.toMatch(PAN_RUN);
  });

  it("masks a card number in a good row's description as a push's free text is (first 6, last 4)", () => {
    const row = (description: string) =>
      `${HEADER}\nA,card_transaction,T1,-1.00,USD,2026-05-01,,,"${description}"\n`;
    const entryOf = (description: string) => parseLedger(row(description)).entries[0]?.entry;
    expect(entryOf("paid with card 4111111111111111 exp 12/29")?.description).toBe(
      "paid with card 411111******1111 exp 12/29",
    );
    expect(entryOf("card 5555 5555 5555 4444, refund")?.description).toBe(
      "card 555555******4444, refund",
    );
    // Not a card number (too short, or no 13–19 digits passing the Luhn check), or a date:
    // kept as written.
    expect(entryOf("order 123456789012, ref 1234567890123 on 2026-05-01 12:30")?.description).toBe(
      "order 123456789012, ref 1234567890123 on 2026-05-01 12:30",
    );
    // The same text always gives the same entry: a repeated import leaves it unchanged.
    expect(entryOf("4111111111111111")).toEqual(entryOf("4111111111111111"));
  });
});

describe("the entity column", () => {
  const entities = { merchantNo: "M1", subMerchants: ["M2", "M3"] };
  const file = (...rows: string[]) => [`${HEADER},entity`, ...rows].join("\n");

  it("takes the merchant itself (empty or MERCHANT_NO) and a sub-merchant's account entries", () => {
    const parsed = parseLedger(
      file(
        "a,account,1001,10.00,USD,2026-05-01,,,,",
        "b,account,1002,10.00,USD,2026-05-01,,,,M1",
        "c,account,1003,-5.00,EUR,2026-05-01,,,,M2",
        "d,card_transaction,T1,-5.00,EUR,2026-05-01,,,,M1",
      ),
      entities,
    );
    expect(parsed.errors).toEqual([]);
    expect(parsed.entries.map((e) => [e.entry.entryId, e.entry.entity])).toEqual([
      ["a", undefined],
      ["b", undefined],
      ["c", "M2"],
      ["d", undefined],
    ]);
  });

  it("refuses an unknown entity and a sub-merchant on a card entry, with the line and the rule", () => {
    const parsed = parseLedger(
      file(
        "a,account,1001,10.00,USD,2026-05-01,,,,M9",
        "b,card_transaction,T1,-5.00,EUR,2026-05-01,,,,M3",
      ),
      entities,
    );
    expect(parsed.errors).toEqual([
      {
        line: 2,
        reason:
          'entity "M9" is neither the merchant (MERCHANT_NO M1) nor a sub-merchant of RECONCILER_ENTITIES (M2, M3)',
      },
      {
        line: 3,
        reason:
          'entity "M3" is a sub-merchant, whose entries are account postings only (kind is card_transaction)',
      },
    ]);
    // Without RECONCILER_ENTITIES every sub-merchant is unknown.
    expect(parseLedger(file("c,account,1003,-5.00,EUR,2026-05-01,,,,M2")).errors).toEqual([
      {
        line: 2,
        reason:
          'entity "M2" is neither the merchant (MERCHANT_NO) nor a sub-merchant of RECONCILER_ENTITIES (none set)',
      },
    ]);
  });
});

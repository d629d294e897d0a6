// Free text as the audit trail keeps it: bidi controls taken out as from names, line breaks and
// joiners kept, and only digits that are a card number (13–19 passing the Luhn check) masked.
import { describe, expect, it } from "vitest";
import { freeText, personName } from "./typed-text";

describe("freeText", () => {
  it("takes out bidi controls, as personName does, and keeps line breaks and joiners", () => {
    const typed = "refund \u202eCBA\u202c of 12.30\u2066 EUR\u2069\u200f\r\nsee FIN-881 👩\u200d💻";
    expect(freeText(typed, "comment", "a comment")).toBe(
      "refund CBA of 12.30 EUR\r\nsee FIN-881 👩\u200d💻",
    );
    expect(personName("Al\u202eice", "actor", "a name")).toBe("Alice");
  });

  it("refuses a comment of bidi controls only, naming the field", () => {
    expect(() => freeText("\u202e\u2066", "comment", "what you want to say")).toThrow(
      "comment is required: what you want to say",
    );
  });
  it("masks a card number in a comment and leaves an IBAN, a phone number and a 16-digit number that fails the card check whole", () => {
    const typed = [
      "card 4111 1111 1111 1111",
      "IBAN DE89 3704 0044 0532 0130 00",
      "call +49 30 1234567 100",
      "ref 4111111111111113",
    ].join("\n");
    expect(freeText(typed, "comment", "a comment").split("\n")).toEqual([
      "card 411111******1111",
      "IBAN DE89 3704 0044 0532 0130 00",
      "call +49 30 1234567 100",
      "ref 4111111111111113",
    ]);
  });
});

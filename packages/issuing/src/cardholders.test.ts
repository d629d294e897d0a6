import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  isConfigurationError,
  isDuplicateError,
  isInvalidRequestError,
  isNotFoundError,
  isRequestValidationError,
} from "./index";
import { type TestBed, testBed } from "./testing/sandbox";

let bed: TestBed;
let n = 0;
const email = () => `holder-${++n}@example.com`;

beforeAll(async () => {
  bed = await testBed();
});
afterAll(() => bed.close());
beforeEach(() => bed.sandbox.admin.clearRequests());

describe("cardholders.create", () => {
  it("takes addressCountryCode, sends it as addressRegionCode, answers with both", async () => {
    const holder = await bed.issuing.cardholders.create({
      firstName: "Ada",
      lastName: "Lovelace",
      email: email(),
      mobile: "81234567",
      birthDay: "1990-12-10",
      addressCountryCode: "SG",
    });
    expect(holder).toMatchObject({
      firstName: "Ada",
      addressRegionCode: "SG",
      addressCountryCode: "SG",
      birthDay: "1990-12-10",
    });
    expect(BigInt(holder.cardholderId) > 2n ** 53n).toBe(true);

    const [sent] = await bed.sent("/cardholder/createCardholder");
    expect(sent?.body).toMatchObject({ merchantNo: "M1000001", addressRegionCode: "SG" });
    expect(sent?.body).not.toHaveProperty("addressCountryCode");
    expect(sent?.body.clientRequestId).toEqual(expect.any(String));
  });

  it("refuses the country under both names, and the contract's limits, before sending", async () => {
    const both = await bed.issuing.cardholders
      .create({
        firstName: "A",
        lastName: "B",
        email: email(),
        addressCountryCode: "SG",
        addressRegionCode: "US",
      } as never)
      .catch((e: unknown) => e);
    expect(isRequestValidationError(both)).toBe(true);
    expect(both).toMatchObject({ field: "addressCountryCode" });

    const long = await bed.issuing.cardholders
      .create({ firstName: "x".repeat(51), lastName: "B", email: "not-an-email" })
      .catch((e: unknown) => e);
    expect(isRequestValidationError(long)).toBe(true);
    expect((long as { issues: { path: string }[] }).issues.map((i) => i.path).sort()).toEqual([
      "email",
      "firstName",
    ]);
    const country = await bed.issuing.cardholders
      .create({ firstName: "A", lastName: "B", email: email(), addressCountryCode: "SGP" })
      .catch((e: unknown) => e);
    expect(country).toMatchObject({
      field: "addressCountryCode",
      issues: [{ path: "addressCountryCode", message: "must be at most 2 characters" }],
    });
    expect(await bed.sandbox.admin.requests()).toHaveLength(0);
  });

  it("needs a merchantNo from the client or the call", async () => {
    const bare = bed.client({ merchantNo: undefined });
    const error = await bare.cardholders
      .create({ firstName: "A", lastName: "B", email: email() })
      .catch((e: unknown) => e);
    expect(isConfigurationError(error)).toBe(true);
    expect(await bed.sandbox.admin.requests()).toHaveLength(0);

    const holder = await bare.cardholders.create({
      merchantNo: "M1000001",
      firstName: "A",
      lastName: "B",
      email: email(),
    });
    expect(holder.cardholderId).toMatch(/^\d+$/);
    const other = await bare.cardholders
      .create({ merchantNo: "M1000002", firstName: "A", lastName: "B", email: email() })
      .catch((e: unknown) => e);
    expect(isInvalidRequestError(other)).toBe(true);
    expect(other).toMatchObject({ respCode: "80003" });
  });

  it("an e-mail in use is a DuplicateError (80002)", async () => {
    const address = email();
    await bed.issuing.cardholders.create({ firstName: "A", lastName: "B", email: address });
    const error = await bed.issuing.cardholders
      .create({ firstName: "C", lastName: "D", email: address.toUpperCase() })
      .catch((e: unknown) => e);
    expect(isDuplicateError(error)).toBe(true);
    expect(error).toMatchObject({ respCode: "80002" });
  });

  it("replays a repeated clientRequestId; with other params it is a DuplicateError (80010)", async () => {
    const params = {
      clientRequestId: "holder-once",
      firstName: "A",
      lastName: "B",
      email: email(),
    };
    const first = await bed.issuing.cardholders.create(params);
    const again = await bed.issuing.cardholders.create(params);
    expect(again.cardholderId).toBe(first.cardholderId);

    const error = await bed.issuing.cardholders
      .create({ ...params, firstName: "Other" })
      .catch((e: unknown) => e);
    expect(isDuplicateError(error)).toBe(true);
    expect(error).toMatchObject({ respCode: "80010", idempotencyKey: "holder-once" });
  });
});

describe("cardholders.update", () => {
  it("changes only the fields given, the country under the same name as on create", async () => {
    const holder = await bed.issuing.cardholders.create({
      firstName: "Grace",
      lastName: "Hopper",
      email: email(),
      addressCountryCode: "US",
    });
    const updated = await bed.issuing.cardholders.update({
      cardholderId: holder.cardholderId,
      lastName: "Murray",
      addressCountryCode: "DE",
    });
    expect(updated).toMatchObject({
      cardholderId: holder.cardholderId,
      firstName: "Grace",
      lastName: "Murray",
      addressCountryCode: "DE",
    });
    const [sent] = await bed.sent("/cardholder/updateCardholder");
    expect(sent?.body).toMatchObject({ merchantNo: "M1000001", addressCountryCode: "DE" });
    expect(sent?.body).not.toHaveProperty("addressRegionCode");
  });

  it("an unknown cardholder is a NotFoundError (80001)", async () => {
    const error = await bed.issuing.cardholders
      .update({ cardholderId: "1953712585351499776", lastName: "X" })
      .catch((e: unknown) => e);
    expect(isNotFoundError(error)).toBe(true);
    expect(error).toMatchObject({ respCode: "80001" });
  });
});

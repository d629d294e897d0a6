/** payers.* against the sandbox: create (id as exact digits), the entity rules, list with size -1. */
import { isRequestValidationError, type RequestValidationError } from "@merchantkit/core";
import { type RunningSandbox, startSandbox } from "@merchantkit/sandbox";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { PayoutClient } from "./payout-client";
import { clientFor, individualPayer, payoutTruth } from "./testing/fixtures";

let sandbox: RunningSandbox;
let payout: PayoutClient;
const ids: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox();
  payout = clientFor(sandbox);
  for (const lastName of ["Hopper", "Lamarr", "Noether"]) {
    ids.push(await payout.payers.create(individualPayer({ lastName })));
  }
  ids.push(
    await payout.payers.create({
      subEntityType: "0",
      country: "SG",
      companyNameEn: "Difference Engines Pte Ltd",
      registerNo: "201912345K",
      registerDate: "2019-04-01",
    }),
  );
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.admin.clearRequests());

describe("payers", () => {
  it("answers the new id as exact digits the sandbox holds", async () => {
    for (const id of ids) expect(BigInt(id) > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
    const { payers } = await payoutTruth(sandbox);
    expect(payers.map((p) => p.id)).toEqual(ids);
  });

  it("refuses a payer without the names its entity type needs, before sending", async () => {
    const business = await payout.payers
      .create({ subEntityType: "0", country: "SG" })
      .catch((e: unknown) => e);
    expect(isRequestValidationError(business)).toBe(true);
    expect((business as RequestValidationError).issues).toEqual([
      {
        path: "companyNameEn",
        message: "or companyName is required for a business payer (subEntityType 0)",
      },
    ]);
    const person = await payout.payers
      .create(individualPayer({ firstName: undefined }))
      .catch((e: unknown) => e);
    expect((person as RequestValidationError).field).toBe("firstName");
    const date = await payout.payers
      .create(individualPayer({ birthDate: "01/02/1990" }))
      .catch((e: unknown) => e);
    expect((date as RequestValidationError).field).toBe("birthDate");
    expect(await sandbox.admin.requests()).toEqual([]);
  });

  it("lists every payer in one request with size -1", async () => {
    const page = await payout.payers.list({ size: -1 });
    expect(page.records.map((p) => p.id)).toEqual(ids);
    expect(page.hasMore).toBe(false);
    const all = await payout.payers.list({ size: -1 }).toArray({ limit: 100 });
    expect(all.map((p) => p.id)).toEqual(ids);
    const sent = await sandbox.admin.requests({ path: "/payout/api/v1/acct/queryPayer" });
    expect(sent.map((r) => (r.body as { size: number }).size)).toEqual([-1, -1]);
  });

  it("iterates pages, filters and sorts", async () => {
    const seen: string[] = [];
    for await (const p of payout.payers.list({ size: 1 })) seen.push(p.id);
    expect(seen).toEqual(ids);
    const people = await payout.payers.list({ subEntityType: "1", column: "lastName", asc: false });
    expect(people.records.map((p) => p.lastName)).toEqual(["Noether", "Lamarr", "Hopper"]);
    const one = await payout.payers.list({ id: ids[3] });
    expect(one.records).toMatchObject([
      { id: ids[3], companyNameEn: "Difference Engines Pte Ltd" },
    ]);
  });

  it("refuses size 0 before sending", async () => {
    const error = await payout.payers.list({ size: 0 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((error as RequestValidationError).field).toBe("size");
    expect(await sandbox.admin.requests()).toEqual([]);
  });
});

import { cardholderCreateCardholder, cardholderUpdateCardholder } from "@merchantkit/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSandbox, startSandbox } from "../start-sandbox";
import { clientFor } from "../testing/sandbox-client";

describe("cardholder endpoints over HTTP", () => {
  let sandbox: RunningSandbox;
  let api: ReturnType<typeof clientFor>;

  beforeAll(async () => {
    sandbox = await startSandbox();
    api = clientFor(sandbox);
  });
  afterAll(() => sandbox.close());

  const create = (fields: Record<string, unknown>) =>
    api.call(cardholderCreateCardholder, {
      merchantNo: "M1000001",
      clientRequestId: `h-${String(fields.email)}`,
      firstName: "Alan",
      lastName: "Turing",
      ...fields,
    });

  it("creates a cardholder with a 64-bit id and echoes its fields, unset ones left out", async () => {
    const answer = await create({
      email: "alan@example.com",
      mobile: "5550100",
      mobileAreaCode: "+44",
      birthDay: "1912-06-23",
      nationality: "GB",
      addressRegionCode: "GB",
      addressCityCode: "LON",
    });
    expect(answer.respCode).toBe("20000");
    expect(answer.data?.cardholderId).toMatch(/^\d{19}$/);
    expect(BigInt(answer.data?.cardholderId ?? "0") > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
    expect(answer.data).toMatchObject({
      firstName: "Alan",
      lastName: "Turing",
      email: "alan@example.com",
      mobile: "5550100",
      birthDay: "1912-06-23",
      addressRegionCode: "GB",
      addressCityCode: "LON",
    });
    expect(answer.data?.remark).toBeUndefined();
    expect(answer.data?.addressDetailLine1).toBeUndefined();
  });

  it("refuses an e-mail the merchant already has, whatever its case (80002)", async () => {
    expect((await create({ email: "dup@example.com" })).respCode).toBe("20000");
    const again = await create({ email: "DUP@Example.com", clientRequestId: "other-key" });
    expect(again.respCode).toBe("80002");
  });

  it("refuses a merchantNo that is not the ApiKey's merchant (80003)", async () => {
    const answer = await create({ email: "wrong@example.com", merchantNo: "M9999999" });
    expect(answer.respCode).toBe("80003");
  });

  it("updates only the fields sent; addressCountryCode becomes addressRegionCode", async () => {
    const created = await create({ email: "upd@example.com", mobile: "111", remark: "first" });
    const id = created.data?.cardholderId as string;
    const updated = await api.call(cardholderUpdateCardholder, {
      merchantNo: "M1000001",
      cardholderId: id,
      lastName: "Byron",
      addressCountryCode: "US",
    });
    expect(updated.respCode).toBe("20000");
    expect(updated.data).toMatchObject({
      cardholderId: id,
      firstName: "Alan",
      lastName: "Byron",
      email: "upd@example.com",
      mobile: "111",
      remark: "first",
      addressRegionCode: "US",
    });
    const email = await api.call(cardholderUpdateCardholder, {
      merchantNo: "M1000001",
      cardholderId: id,
      email: "UPD2@example.com",
    });
    expect(email.data?.email).toBe("UPD2@example.com");
    // The old address is free again, the new one taken.
    expect((await create({ email: "upd@example.com", clientRequestId: "reuse" })).respCode).toBe(
      "20000",
    );
    expect((await create({ email: "upd2@example.com", clientRequestId: "taken" })).respCode).toBe(
      "80002",
    );
  });

  it("refuses an update of an unknown cardholder (80001) or to an e-mail in use (80002)", async () => {
    const unknown = await api.call(cardholderUpdateCardholder, {
      merchantNo: "M1000001",
      cardholderId: "1953712585399999999",
      lastName: "X",
    });
    expect(unknown.respCode).toBe("80001");
    const a = await create({ email: "a@example.com" });
    await create({ email: "b@example.com" });
    const clash = await api.call(cardholderUpdateCardholder, {
      merchantNo: "M1000001",
      cardholderId: a.data?.cardholderId,
      email: "B@example.com",
    });
    expect(clash.respCode).toBe("80002");
    const mismatch = await api.call(cardholderUpdateCardholder, {
      merchantNo: "M1000002",
      cardholderId: a.data?.cardholderId,
      lastName: "X",
    });
    expect(mismatch.respCode).toBe("80003");
  });
});

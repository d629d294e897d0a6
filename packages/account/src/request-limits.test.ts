/**
 * Issue 18 §6 for the account area: serviceIds past 64 bits and 10,000-character strings are
 * refused with a RequestValidationError naming the field and the rule, before anything is sent.
 */
import { recordingFetch, refusalOf } from "@merchantkit/core/testing";
import { describe, expect, it } from "vitest";
import { AccountClient } from "./account-client";

describe("account requests beyond what the service takes", () => {
  const sent = recordingFetch();
  const account = new AccountClient({
    environment: { origin: "http://127.0.0.1:9" },
    apiKey: "key",
    fetch: sent.fetch,
  });

  it("refuses a serviceId past 64 bits, alone or in listByServiceIds", async () => {
    const rule = "must be a 64-bit id: digits without leading zeros, at most 9223372036854775807";
    const ids = ["1953712585351499776", "18446744073709551616"];
    expect(await refusalOf(account.transactions.query({ serviceIds: ids }))).toEqual([
      `serviceIds[1]: ${rule}`,
    ]);
    expect(await refusalOf(account.transactions.listByServiceIds(ids))).toHaveLength(1);
    expect(sent.calls).toEqual([]);
  });

  it("refuses a 10,000-character globalAccountNo and onBehalfOf", async () => {
    const long = "x".repeat(10_000);
    expect(await refusalOf(account.globalAccounts.retrieve({ globalAccountNo: long }))).toEqual([
      "globalAccountNo: must be at most 256 characters",
    ]);
    expect(
      await refusalOf(
        account.globalAccounts.retrieve({ globalAccountNo: "GA1" }, { onBehalfOf: long }),
      ),
    ).toEqual(["onBehalfOf: must be at most 256 characters"]);
    expect(sent.calls).toEqual([]);
  });
});

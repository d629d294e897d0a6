/** checkBeneficiaryDraft offline, and paymentFields.check agreeing with what the sandbox refuses. */
import { isInvalidRequestError } from "@merchantkit/core";
import { type RunningSandbox, startSandbox } from "@merchantkit/sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkBeneficiaryDraft } from "./check-beneficiary-draft";
import type { PayoutClient } from "./payout-client";
import { clientFor, phWallet, usLocalPerson } from "./testing/fixtures";
import type { PaymentFieldTemplate } from "./types";

const template: PaymentFieldTemplate = {
  receiverInfo: { firstName: "Y", lastName: "Y", email: "N" },
  address: { countryCode: "Y", city: "C" },
  accountInfomation: { cardNumber: "Y", walletType: "Y", walletPhone: "C" },
};

describe("checkBeneficiaryDraft (offline)", () => {
  it("lists the missing Y keys per part and the empty C keys", () => {
    const report = checkBeneficiaryDraft(template, {
      receiverInfo: { firstName: "Jose", lastName: "  " },
      address: {},
      accountInfomation: { cardNumber: "0917", walletType: null as never },
    });
    expect(report).toEqual({
      ok: false,
      missing: {
        receiverInfo: ["lastName"],
        address: ["countryCode"],
        accountInfomation: ["walletType"],
      },
      conditional: { receiverInfo: [], address: ["city"], accountInfomation: ["walletPhone"] },
      missingPaths: [
        "receiverInfo.lastName",
        "address.countryCode",
        "accountInfomation.walletType",
      ],
    });
  });

  it("treats absent parts as empty and accepts a complete draft", () => {
    expect(checkBeneficiaryDraft(template, {}).missingPaths).toHaveLength(5);
    const full = checkBeneficiaryDraft(template, {
      receiverInfo: { firstName: "Jose", lastName: "Rizal", extra: "kept" },
      address: { countryCode: "PH", city: "Manila" },
      accountInfomation: { cardNumber: "0917", walletType: "GCASH", walletPhone: "0917" },
    });
    expect(full).toMatchObject({ ok: true, missingPaths: [] });
    expect(full.conditional).toEqual({ receiverInfo: [], address: [], accountInfomation: [] });
  });
});

describe("paymentFields.check (against the sandbox)", () => {
  let sandbox: RunningSandbox;
  let payout: PayoutClient;
  beforeAll(async () => {
    sandbox = await startSandbox();
    payout = clientFor(sandbox);
  });
  afterAll(() => sandbox.close());

  it("finds exactly the keys the service would refuse", async () => {
    const draft = usLocalPerson({
      address: { countryCode: "US", city: "New York" },
      accountInfomation: { cardNumber: "000123", bankHolderName: "Ada Lovelace" },
    });
    const report = await payout.paymentFields.check(draft);
    expect(report.missingPaths).toEqual([
      "address.state",
      "address.addressLine1",
      "address.postalCode",
      "accountInfomation.accountType",
      "accountInfomation.branchCode",
    ]);
    const refused = await payout.beneficiaries.create(draft).catch((e: unknown) => e);
    expect(isInvalidRequestError(refused)).toBe(true);
    for (const path of report.missingPaths) {
      expect((refused as Error).message).toContain(path);
    }
  });

  it("passes a draft the service then accepts", async () => {
    const draft = phWallet();
    const report = await payout.paymentFields.check(draft);
    expect(report.ok).toBe(true);
    expect(report.conditional.accountInfomation).toEqual(["walletPhone"]);
    expect((await payout.beneficiaries.create(draft)).payeeStatus).toBe("UNNECESSARY");
  });
});

import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { beneficiaryEdit } from "./beneficiary-edit";

const params = {
  merchantNo: "800209",
  beneficiaryId: "1953712585351499776",
  merchantRefId: "user-42",
  bankCountry: "PH",
  payoutCurrency: "PHP",
  entityType: "1",
  paymentMethod: "E_WALLET",
  receiverInfo: { firstName: "Juan", lastName: "Cruz" },
  address: {},
  accountInfomation: { walletPhone: "9171234567" },
} as const;

describe("payout beneficiary/edit", () => {
  it("sends beneficiaryId plus the add fields", () => {
    const wire = v.parse(beneficiaryEdit.request, params);
    expect(wire.beneficiaryId).toBe("1953712585351499776");
    expect(wire.address).toBe("{}");
    const { beneficiaryId: _, ...withoutId } = params;
    expect(v.safeParse(beneficiaryEdit.request, withoutId).success).toBe(false);
  });

  it("reads the new review status", () => {
    const data = v.parse(beneficiaryEdit.response, { beneficiaryId: "7", payeeStatus: "WAITING" });
    expect(data.payeeStatus).toBe("WAITING");
  });
});

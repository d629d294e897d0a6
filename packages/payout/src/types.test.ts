/**
 * Type tests (checked by `tsc -b`; the vitest run only confirms they load): what the payout
 * types accept and refuse at compile time.
 */
import { describe, expectTypeOf, it } from "vitest";
import type { PayoutClient } from "./payout-client";
import type {
  Beneficiary,
  BeneficiaryCreateParams,
  ChargeFlag,
  EntityType,
  PaymentMethod,
  Transfer,
  TransferCreateParams,
} from "./types";

describe("payout types", () => {
  it("types the JSON-encoded parts as objects and ids and amounts as strings", () => {
    expectTypeOf<BeneficiaryCreateParams["receiverInfo"]>().toHaveProperty("firstName");
    expectTypeOf<Beneficiary["beneficiaryId"]>().toEqualTypeOf<string>();
    expectTypeOf<Transfer["payoutId"]>().toEqualTypeOf<string>();
    expectTypeOf<Transfer["sourceAmount"]>().toEqualTypeOf<string | undefined>();
    // Documented values for completion; a value the service adds later is accepted too.
    expectTypeOf<"Y">().toExtend<ChargeFlag>();
    expectTypeOf<"FUTURE_FLAG">().toExtend<ChargeFlag>();
    expectTypeOf<"0">().toExtend<EntityType>();
    expectTypeOf<"2">().toExtend<EntityType>();
    // Open enums: the known values for completion, any other string still accepted.
    expectTypeOf<"SWIFT">().toExtend<PaymentMethod>();
    expectTypeOf<"NEW_METHOD">().toExtend<PaymentMethod>();
  });

  it("refuses wrong shapes at compile time", () => {
    // Never called: the lines only have to compile (or fail to, where marked).
    const compileOnly = (payout: PayoutClient, params: TransferCreateParams) => {
      // @ts-expect-error amounts are decimal strings, never numbers
      void payout.transfers.create({ ...params, sourceAmount: 10.5 });
      // @ts-expect-error receiverInfo is an object; the client JSON-encodes it
      void payout.beneficiaries.create({ ...({} as BeneficiaryCreateParams), receiverInfo: "{}" });
      // @ts-expect-error beneficiaryId is required
      void payout.transfers.create({ ...params, beneficiaryId: undefined });
    };
    expectTypeOf(compileOnly).toBeFunction();
  });
});

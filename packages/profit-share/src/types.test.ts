/**
 * Type tests (checked by `tsc -b`; the vitest run only confirms they load): share and reverse
 * are the two variants of one request, and the wrong variant's fields do not compile.
 */
import { describe, expectTypeOf, it } from "vitest";
import type { ProfitShareClient } from "./profit-share-client";
import type {
  ProfitShareRequest,
  ProfitShareResult,
  ProfitShareState,
  ReverseParams,
  ShareParams,
} from "./types";

const receivers = [
  { profitDetailReference: "d1", type: "MERCHANT", account: "M2", amount: "1.00" },
];

describe("profit-share types", () => {
  it("requires gatewayReference and profitCompleted for a share", () => {
    expectTypeOf<ShareParams>().toHaveProperty("gatewayReference").toEqualTypeOf<string>();
    expectTypeOf<ShareParams>().toHaveProperty("profitCompleted").toEqualTypeOf<boolean>();
    expectTypeOf<{
      currency: string;
      receivers: typeof receivers;
      profitCompleted: boolean;
    }>().not.toExtend<ShareParams>();
  });

  it("forbids gatewayReference and profitCompleted on a reversal, requires its references", () => {
    expectTypeOf<ReverseParams>().toHaveProperty("profitCompleted").toEqualTypeOf<undefined>();
    expectTypeOf<ReverseParams>().toHaveProperty("profitParentReference").toEqualTypeOf<string>();
    expectTypeOf<{
      currency: string;
      receivers: typeof receivers;
      profitGatewayReference: string;
      profitParentReference: string;
      profitCompleted: boolean;
    }>().not.toExtend<ReverseParams>();
  });

  it("keeps the wire request a discriminated union and the result's state open", () => {
    expectTypeOf<ProfitShareRequest["profitType"]>().toEqualTypeOf<"share" | "return">();
    expectTypeOf<ProfitShareResult["state"]>().toEqualTypeOf<ProfitShareState>();
    expectTypeOf<"processing">().toExtend<ProfitShareState>();
    expectTypeOf<ProfitShareResult["receivers"][number]["amount"]>().toEqualTypeOf<string>();
  });

  it("does not compile the wrong variant's calls", () => {
    // Never called: the lines only have to compile (or fail to, where marked).
    const compileOnly = (profit: ProfitShareClient, gatewayReference: string) => {
      // The valid calls the refused ones below differ from by one field each.
      void profit.share({ currency: "USD", receivers, gatewayReference, profitCompleted: false });
      void profit.reverse({
        currency: "USD",
        receivers,
        profitGatewayReference: "1",
        profitParentReference: "p-1",
      });
      // @ts-expect-error a share without gatewayReference
      void profit.share({ currency: "USD", receivers, profitCompleted: false });
      // @ts-expect-error a share without profitCompleted
      void profit.share({ currency: "USD", receivers, gatewayReference });
      void profit.reverse({
        currency: "USD",
        receivers,
        profitGatewayReference: "1",
        profitParentReference: "p-1",
        // @ts-expect-error a reversal with profitCompleted
        profitCompleted: false,
      });
      void profit.reverse({
        currency: "USD",
        receivers,
        profitGatewayReference: "1",
        profitParentReference: "p-1",
        // @ts-expect-error a reversal with gatewayReference
        gatewayReference,
      });
      // @ts-expect-error a reversal without profitParentReference
      void profit.reverse({ currency: "USD", receivers, profitGatewayReference: "1" });
      void profit.share({
        currency: "USD",
        receivers,
        gatewayReference,
        profitCompleted: true,
        // @ts-expect-error a share with the reversal's reference
        profitParentReference: "p",
      });
      void profit.share({
        currency: "USD",
        // @ts-expect-error amounts are decimal strings
        receivers: [{ ...receivers[0], amount: 1 }],
        gatewayReference,
        profitCompleted: true,
      });
      // Not a fresh literal, so no excess-property check: `never` still refuses the key.
      const withCompleted = {
        currency: "USD",
        receivers,
        profitGatewayReference: "1",
        profitParentReference: "p",
        profitCompleted: true,
      };
      // @ts-expect-error profitCompleted is never on a reversal
      void profit.reverse(withCompleted);
    };
    expectTypeOf(compileOnly).toBeFunction();
  });
});

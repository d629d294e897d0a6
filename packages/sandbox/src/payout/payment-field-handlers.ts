/**
 * acct/queryPaymentFeild (the Y/C/N templates of a route; 42201 when the route does not exist)
 * and acct/queryPaymentMethods (the methods of the same table; an empty list when none).
 * walletType is accepted and does not change the template.
 */
import { acctQueryPaymentFeild, acctQueryPaymentMethods } from "@merchantkit/contract";
import { type AnyHandler, handle } from "../runtime/area";
import { fail } from "../runtime/sandbox-error";
import { findRoute, methodsFor } from "./payment-routes";

export function paymentFieldHandlers(): [string, AnyHandler][] {
  return [
    handle(acctQueryPaymentFeild, (p, call) => {
      const route = findRoute(p);
      if (!route) {
        fail(
          "42201",
          `payment method ${p.paymentMethod} is not available for ${p.bankCountry}/${p.payoutCurrency} and entityType ${p.entityType}`,
        );
      }
      return {
        merchantNo: call.merchantNo,
        receiverInfo: { ...route.receiverInfo },
        address: { ...route.address },
        accountInfomation: { ...route.accountInfomation },
      };
    }),
    handle(acctQueryPaymentMethods, (p) => ({
      paymentMethods: methodsFor(p.destinationCountry, p.accountCurrency, p.entityType),
    })),
  ];
}

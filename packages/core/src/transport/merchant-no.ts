/**
 * Every call to an endpoint that carries merchantNo needs one: the client's, or the call's own.
 * Without either it is refused before sending with a ConfigurationError naming the field, the
 * rule and where to put it; the transport alone would say only "merchantNo: is required".
 */
import { ConfigurationError } from "../errors/local-errors";
import { ApiPromise } from "./api-promise";

/** Whose calls need merchantNo and which client takes it, as the error names them. */
export interface MerchantNoScope {
  /** "payout", "profit-share", "cardholder": the calls that carry merchantNo. */
  calls: string;
  /** "PayoutClient": the constructor a merchantNo can be given to. */
  client: string;
}

/**
 * The call refused when neither the client (`configured`) nor `params` gives merchantNo;
 * undefined when it may be sent. Params that are not an object pass: the transport refuses
 * them with what is really wrong.
 */
export function requireMerchantNo(
  params: unknown,
  configured: string | undefined,
  scope: MerchantNoScope,
): ApiPromise<never> | undefined {
  if (
    configured !== undefined ||
    typeof params !== "object" ||
    params === null ||
    Array.isArray(params) ||
    (params as { merchantNo?: unknown }).merchantNo !== undefined
  ) {
    return undefined;
  }
  return new ApiPromise(
    Promise.reject(
      new ConfigurationError(
        `merchantNo is required for ${scope.calls} calls: pass it to new ${scope.client}({ merchantNo }) or in the params`,
      ),
    ),
  );
}

/**
 * Cardholders (cardholder/createCardholder, cardholder/updateCardholder), with merchantNo from
 * the client's configuration and addressCountryCode as the one name of the address country.
 */
import { cardholderCreateCardholder, cardholderUpdateCardholder } from "@merchantkit/contract";
import {
  ApiPromise,
  type RequestOptions,
  RequestValidationError,
  requireMerchantNo,
  type Transport,
} from "@merchantkit/core";
import { isRecord, toCreateWire, withCountryCode } from "./cardholder-country";
import type { Cardholder, CardholderCreateParams, CardholderUpdateParams } from "./types";

const CARDHOLDER_CALLS = { calls: "cardholder", client: "IssuingClient" };

export class Cardholders {
  readonly #transport: Transport;
  readonly #merchantNo: string | undefined;

  constructor(transport: Transport, merchantNo: string | undefined) {
    this.#transport = transport;
    this.#merchantNo = merchantNo;
  }

  /** A cardholder call with neither a configured nor a given merchantNo cannot be sent. */
  #missingMerchantNo(params: unknown): ApiPromise<Cardholder> | undefined {
    return requireMerchantNo(params, this.#merchantNo, CARDHOLDER_CALLS);
  }

  /** Creates a cardholder; an e-mail the merchant already uses is a DuplicateError (80002). */
  create(params: CardholderCreateParams, options?: RequestOptions): ApiPromise<Cardholder> {
    const missing = this.#missingMerchantNo(params);
    if (missing) return missing;
    const wire = toCreateWire(params);
    if (wire instanceof RequestValidationError) return new ApiPromise(Promise.reject(wire));
    const renamed = isRecord(params) && params.addressCountryCode !== undefined;
    return withCountryCode(
      this.#transport.request(cardholderCreateCardholder, wire, options),
      renamed,
    );
  }

  /** Changes the fields given; an unknown cardholderId is a NotFoundError (80001). */
  update(params: CardholderUpdateParams, options?: RequestOptions): ApiPromise<Cardholder> {
    return (
      this.#missingMerchantNo(params) ??
      withCountryCode(this.#transport.request(cardholderUpdateCardholder, params, options))
    );
  }
}

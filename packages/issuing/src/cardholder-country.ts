/**
 * One name for the cardholder's address country. The service calls it addressRegionCode on
 * create and addressCountryCode on update; the SDK takes addressCountryCode for both, sends the
 * create request's name, names the field as the caller wrote it in validation errors, and sets
 * addressCountryCode on the answered cardholder.
 */
import { cardholderCreateCardholder } from "@merchantkit/contract";
import {
  ApiPromise,
  type EndpointParams,
  isRequestValidationError,
  RequestValidationError,
} from "@merchantkit/core";
import type { Cardholder, CardholderCreateParams } from "./types";

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A contract issue about addressRegionCode, named as the caller wrote it. */
function renameCountryIssues(error: unknown): unknown {
  if (!isRequestValidationError(error)) return error;
  if (!error.issues.some((i) => i.path === "addressRegionCode")) return error;
  const issues = error.issues.map((i) =>
    i.path === "addressRegionCode" ? { ...i, path: "addressCountryCode" } : i,
  );
  return new RequestValidationError(issues, { path: error.path });
}

/** The answered cardholder with addressCountryCode filled from addressRegionCode. */
export function withCountryCode(
  call: ApiPromise<Cardholder>,
  renamed = false,
): ApiPromise<Cardholder> {
  return new ApiPromise(
    call.withResponse().then(
      ({ data, response }) => ({
        data:
          data.addressCountryCode === undefined && data.addressRegionCode !== undefined
            ? { ...data, addressCountryCode: data.addressRegionCode }
            : data,
        response,
      }),
      (error: unknown) => {
        throw renamed ? renameCountryIssues(error) : error;
      },
    ),
  );
}

type CreateWire = EndpointParams<typeof cardholderCreateCardholder>;

/** addressCountryCode → addressRegionCode, the create request's name for the same field. */
export function toCreateWire(params: CardholderCreateParams): CreateWire | RequestValidationError {
  if (!isRecord(params) || params.addressCountryCode === undefined) {
    return params as unknown as CreateWire;
  }
  const { addressCountryCode, ...rest } = params as CardholderCreateParams & {
    addressRegionCode?: unknown;
  };
  if (rest.addressRegionCode !== undefined) {
    return new RequestValidationError(
      [
        {
          path: "addressCountryCode",
          message: "give the country once: addressCountryCode (sent as addressRegionCode)",
        },
      ],
      { path: cardholderCreateCardholder.path },
    );
  }
  return { ...rest, addressRegionCode: addressCountryCode };
}

/**
 * Optional check of the `sign` in profit-share answers. The sign covers the data exactly as it
 * arrived (receivers as the JSON text sent, numbers as written, fields this SDK does not know),
 * so the check needs the wire data, which the transport decodes away. The endpoint given to the
 * transport therefore remembers each answer's wire data next to its decoded result.
 */
import type { ContractEndpoint } from "@merchantkit/contract";
import { type EndpointResult, SignatureError, verifySign } from "@merchantkit/core";

export interface SignedEndpoint<E extends ContractEndpoint> {
  /** The same endpoint, its response parser also keeping the wire data. */
  endpoint: E;
  /**
   * Rejects with a SignatureError unless the wire data behind `result` carries a matching sign;
   * the error carries `idempotencyKey`, the key of the request the service answered.
   */
  verify(result: EndpointResult<E>, idempotencyKey: string | undefined): Promise<void>;
}

export function signedEndpoint<E extends ContractEndpoint>(
  endpoint: E,
  secretKey: string,
): SignedEndpoint<E> {
  const wireOf = new WeakMap<object, unknown>();
  // Without `fresh`: the data is kept for the check, so it must not be decoded in place.
  const parseResponse = (data: unknown) => {
    const result = endpoint.parseResponse(data);
    if (result.success && typeof result.output === "object" && result.output !== null) {
      wireOf.set(result.output, data);
    }
    return result;
  };
  return {
    endpoint: { ...endpoint, parseResponse } as E,
    async verify(result, idempotencyKey) {
      // The service answered, so a write went through: the key to look it up or retry it with.
      const accepted = idempotencyKey
        ? ` The service accepted the request: look it up, or retry it, with idempotency key ${idempotencyKey}, never a new one.`
        : "";
      const wire = wireOf.get(result as object) as Record<string, unknown> | undefined;
      if (typeof wire?.sign !== "string" || wire.sign === "") {
        throw new SignatureError(
          "missing_sign",
          `The answer from ${endpoint.path} carries no sign; turn verifyResponseSign off if the service does not sign its answers.${accepted}`,
          { idempotencyKey },
        );
      }
      if (!(await verifySign(wire, secretKey))) {
        throw new SignatureError(
          "no_match",
          `The sign of the answer from ${endpoint.path} does not match its data: check the secret key; the answer may have been altered on the way.${accepted}`,
          { idempotencyKey },
        );
      }
    },
  };
}

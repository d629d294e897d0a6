/**
 * The provider's `sign` (provider-notes §1), computed synchronously with node:crypto for the
 * simulator, which signs and checks inside synchronous handlers. The SDK's `sign` in core is
 * asynchronous (Web Crypto, so it runs on every runtime); the rule itself — which values, in
 * which order — stays core's one `signingText`, so the two cannot drift apart.
 */
import { hash, timingSafeEqual } from "node:crypto";
import { type SignOptions, signingText } from "@merchantkit/core";

export function signSync(
  params: Record<string, unknown>,
  secretKey: string,
  opts: SignOptions = {},
): string {
  return hash("sha256", signingText(params, opts) + secretKey, "hex");
}

/** Like core's verifySign: case-insensitive, constant time, false for a missing or odd sign. */
export function verifySignSync(
  params: Record<string, unknown>,
  secretKey: string,
  opts: SignOptions = {},
): boolean {
  const given = params.sign;
  if (typeof given !== "string") return false;
  const expected = Buffer.from(signSync(params, secretKey, opts), "utf8");
  const actual = Buffer.from(given.toLowerCase(), "utf8");
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

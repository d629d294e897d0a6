// Advisory lock keys: a stable 64-bit number derived from a name.
import { createHash } from "node:crypto";

/**
 * The signed 64-bit key (as digits, for a `$1::bigint` parameter) for a lock name. Derived in
 * JS rather than with Postgres's hashtext(), whose output is not promised to stay the same
 * across server versions; the prefix keeps the reconciler's keys apart from other users'.
 */
export function advisoryKey(name: string): string {
  const digest = createHash("sha256").update(`merchantkit.reconciler:${name}`).digest();
  return digest.readBigInt64BE(0).toString();
}

// Console passwords, stored as scrypt hashes (Node's crypto.scrypt: no dependency to vet, and a
// memory-hard function, so a stolen table costs an attacker memory as well as time per guess).
// Each hash has its own random 16-byte salt and carries its parameters, so they can be raised
// later without invalidating the hashes stored before. Comparison is timing-safe.
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";

/**
 * N = 2^15, r = 8, p = 1: 32 MiB and roughly 0.1 s per hash on one core. OWASP's floor is
 * N = 2^17 at r = 8; 2^15 keeps a sign-in quick on the 2-core hosts the reconciler runs on
 * (docs/assumptions.md). Raising it needs no migration: each hash carries its parameters.
 */
const PARAMS = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_BYTES = 32;

function derive(
  password: string,
  salt: Buffer,
  params: { N: number; r: number; p: number },
): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(
      password.normalize("NFKC"),
      salt,
      KEY_BYTES,
      // maxmem: 128·N·r bytes plus room (Node's default 32 MiB is exactly the working set).
      { ...params, maxmem: 256 * params.N * params.r },
      (error, key) => (error ? reject(error) : resolve(key)),
    ),
  );
}

/** "scrypt$N$r$p$salt$hash" (salt and hash base64url). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS);
  return [
    "scrypt",
    PARAMS.N,
    PARAMS.r,
    PARAMS.p,
    salt.toString("base64url"),
    key.toString("base64url"),
  ].join("$");
}

/** Whether `password` is the one `stored` was made from (false for a malformed hash). */
export async function passwordMatches(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, hash] = stored.split("$");
  if (kind !== "scrypt" || !salt || !hash) return false;
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  if (![params.N, params.r, params.p].every((x) => Number.isSafeInteger(x) && x > 0)) return false;
  const expected = Buffer.from(hash, "base64url");
  const key = await derive(password, Buffer.from(salt, "base64url"), params);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A stored hash of no password anyone knows: an unknown name costs a sign-in the same time. */
export const DECOY_HASH = `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${randomBytes(16).toString("base64url")}$${randomBytes(KEY_BYTES).toString("base64url")}`;

/** A new password, shown once: 18 random bytes (144 bits) as 24 base64url characters. */
export const newPassword = () => randomBytes(18).toString("base64url");

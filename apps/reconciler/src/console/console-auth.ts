// Who is using the console: each person signs in with their own account (console_users, added by
// `reconciler users add`) and gets a session cookie (HttpOnly, SameSite=Strict) and a form token
// every POST must carry, so another site cannot act on a break through a signed-in browser
// (console-app.ts also checks the origin). Sessions live in the database (console_sessions, the
// cookie's SHA-256 only), so disabling an account from the CLI ends its sessions at once.
// Sign-ins are throttled per name and per address (console_sign_ins), and attempts older than
// the throttle's window plus RECONCILER_SIGN_IN_RETENTION_DAYS are deleted at each sign-in.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { sql } from "drizzle-orm";
import { DEFAULT_SIGN_IN_RETENTION_DAYS } from "../config/sign-in-retention";
import type { Db } from "../db/database";
import { queryRows } from "../db/query-rows";
import { entityList } from "../workflow/console-users";
import type { Role } from "../workflow/roles";

export const SESSION_COOKIE = "reconciler_console";

export interface Session {
  /** The signed-in account's name: the actor of every action in the session. */
  actor: string;
  role: Role;
  /**
   * The entities the account is limited to ('' the merchant itself, a sub-merchant's
   * merchantNo); null: every entity.
   */
  entities: string[] | null;
  /** Sent back in every form; a POST without it is refused. */
  formToken: string;
}

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest();

/** Compares in constant time (hashes first, so the lengths do not leak either). */
export function tokenMatches(given: string, expected: string): boolean {
  return timingSafeEqual(sha256(given), sha256(expected));
}

const idHash = (id: string) => sha256(id).toString("hex");

/** Starts a session for account `name`; answers the cookie's value. Expired sessions are dropped. */
export async function createSession(db: Db, name: string, ttlSeconds: number): Promise<string> {
  const id = randomBytes(32).toString("base64url");
  const formToken = randomBytes(24).toString("base64url");
  await queryRows(db, sql`DELETE FROM console_sessions WHERE expires_at < now()`);
  await queryRows(
    db,
    sql`INSERT INTO console_sessions (id_hash, user_name, form_token, expires_at)
      VALUES (${idHash(id)}, ${name}, ${formToken}, now() + ${ttlSeconds} * interval '1 second')`,
  );
  await queryRows(db, sql`UPDATE console_users SET last_sign_in_at = now() WHERE name = ${name}`);
  return id;
}

/** The live session of cookie value `id`: unexpired, its account not disabled. */
export async function sessionOf(db: Db, id: string | undefined): Promise<Session | undefined> {
  if (!id || id.length > 100) return undefined;
  const [row] = await queryRows<Omit<Session, "entities"> & { entities: string | null }>(
    db,
    sql`SELECT u.name AS actor, u.role, array_to_json(u.entities)::text AS entities,
        s.form_token AS "formToken"
      FROM console_sessions s
      JOIN console_users u ON u.name = s.user_name
      WHERE s.id_hash = ${idHash(id)} AND s.expires_at > now() AND u.disabled_at IS NULL`,
  );
  return row && { ...row, entities: row.entities === null ? null : entityList(row.entities) };
}

export async function endSession(db: Db, id: string | undefined): Promise<void> {
  if (id) await queryRows(db, sql`DELETE FROM console_sessions WHERE id_hash = ${idHash(id)}`);
}

/** The throttle: failed sign-ins counted over the last THROTTLE_MINUTES. */
const THROTTLE = { minutes: 15, perName: 5, perAddress: 20 } as const;

/**
 * Seconds to wait before name `name` may try again from `address` (0: it may now). A name's
 * failures count since its last success; an address's all within the window (one address trying
 * many names).
 */
export async function signInWait(db: Db, name: string, address: string): Promise<number> {
  const window = sql`now() - ${THROTTLE.minutes} * interval '1 minute'`;
  const [row] = await queryRows<{ wait: number | null }>(
    db,
    sql`WITH by_name AS (
        SELECT at FROM console_sign_ins
        WHERE name = ${name} AND NOT ok AND at > ${window}
          AND at > coalesce((SELECT max(at) FROM console_sign_ins WHERE name = ${name} AND ok), '-infinity')
        ORDER BY at DESC LIMIT ${THROTTLE.perName}),
      by_address AS (
        SELECT at FROM console_sign_ins WHERE address = ${address} AND NOT ok AND at > ${window}
        ORDER BY at DESC LIMIT ${THROTTLE.perAddress})
      SELECT greatest(
        CASE WHEN (SELECT count(*) FROM by_name) >= ${THROTTLE.perName}
          THEN extract(epoch FROM (SELECT min(at) FROM by_name) + ${THROTTLE.minutes} * interval '1 minute' - now()) END,
        CASE WHEN (SELECT count(*) FROM by_address) >= ${THROTTLE.perAddress}
          THEN extract(epoch FROM (SELECT min(at) FROM by_address) + ${THROTTLE.minutes} * interval '1 minute' - now()) END
      )::float8 AS wait`,
  );
  return Math.max(0, Math.ceil(Number(row?.wait ?? 0)));
}

/**
 * Keeps one sign-in attempt, and deletes those older than the throttle's window plus
 * `retentionDays` (RECONCILER_SIGN_IN_RETENTION_DAYS): the throttle reads 15 minutes back, the
 * rest is kept for review, so the table does not grow for ever.
 */
export async function recordSignIn(
  db: Db,
  name: string,
  address: string,
  ok: boolean,
  retentionDays: number = DEFAULT_SIGN_IN_RETENTION_DAYS,
): Promise<void> {
  await queryRows(
    db,
    sql`INSERT INTO console_sign_ins (name, address, ok) VALUES (${name}, ${address}, ${ok})`,
  );
  await queryRows(
    db,
    sql`DELETE FROM console_sign_ins WHERE at < now() - ${THROTTLE.minutes} * interval '1 minute'
      - ${retentionDays} * interval '1 day'`,
  );
}

/** Loopback names the console may be reached by when it listens on loopback (DNS rebinding). */
export function isLoopbackHost(host: string): boolean {
  return host === "127.0.0.1" || host === "::1" || host === "localhost";
}

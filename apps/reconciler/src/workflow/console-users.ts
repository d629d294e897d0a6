// The console's accounts (console_users): added, listed and disabled from the CLI by whoever runs
// the reconciler, each with a role (roles.ts) and a generated password shown once and stored only
// as a scrypt hash (password-hash.ts). A name follows the audit trail's rule for a person
// (typed-text.ts personName): the console's actor is exactly the account's name.
import { sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { queryRows } from "../db/query-rows";
import { utcText } from "../db/utc-text";
import { hashPassword, newPassword } from "./password-hash";
import { isRole, ROLES, type Role } from "./roles";
import { personName } from "./typed-text";
import { WorkflowError } from "./workflow-error";

export interface ConsoleUser {
  name: string;
  role: Role;
  createdAt: string;
  disabledAt: string | null;
  lastSignInAt: string | null;
  /**
   * The entities the account is limited to ('' the merchant itself, a sub-merchant's
   * merchantNo), checked against the settings by the caller; null: every entity.
   */
  entities: string[] | null;
}

/** A role as typed, or a WorkflowError naming `role`. */
export function roleOf(value: string | undefined): Role {
  const role = (value ?? "").trim().toLowerCase();
  if (!isRole(role))
    throw new WorkflowError("invalid", `role must be one of ${ROLES.join(", ")}`, "role");
  return role;
}

export const userName = (value: string | undefined) =>
  personName(value, "name", "the person's name (it is the actor of their console actions)");

// Named as ConsoleUser names them.
const COLUMNS = sql`name, role, ${utcText("created_at")} AS "createdAt",
  ${utcText("disabled_at")} AS "disabledAt", ${utcText("last_sign_in_at")} AS "lastSignInAt",
  array_to_json(entities)::text AS entities`;

/** The stored entities: a JSON array of text (array_to_json), the same on Postgres and PGlite. */
export const entityList = (json: unknown): string[] => JSON.parse(String(json)) as string[];

/** The entities as the column takes them: null (every entity), or a text[] literal's items. */
const entitiesValue = (entities: readonly string[] | null | undefined) =>
  entities === null || entities === undefined
    ? sql`NULL`
    : sql`ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(entities)}::jsonb))`;

function toUser(r: Record<string, unknown>): ConsoleUser {
  return { ...r, entities: r.entities == null ? null : entityList(r.entities) } as ConsoleUser;
}

/**
 * Adds an account and answers it with its password, which is stored only hashed: the caller
 * shows it once. A name taken in any case is refused (conflict), disabled accounts included.
 */
export async function addUser(
  db: Db,
  input: { name: string; role: string; entities?: readonly string[] | null },
): Promise<{ user: ConsoleUser; password: string }> {
  const name = userName(input.name);
  const role = roleOf(input.role);
  const password = newPassword();
  const hash = await hashPassword(password);
  const [row] = await queryRows(
    db,
    sql`INSERT INTO console_users (name, role, password_hash, entities)
      VALUES (${name}, ${role}, ${hash}, ${entitiesValue(input.entities)})
      ON CONFLICT DO NOTHING RETURNING ${COLUMNS}`,
  );
  if (!row) throw new WorkflowError("conflict", `an account named ${name} exists already`, "name");
  return { user: toUser(row), password };
}

/** Every account, by name (disabled ones too). */
export async function listUsers(db: Db): Promise<ConsoleUser[]> {
  const rows = await queryRows(db, sql`SELECT ${COLUMNS} FROM console_users ORDER BY lower(name)`);
  return rows.map(toUser);
}

/** Disables an account (any case of its name) and ends its sessions; unknown: a WorkflowError. */
export async function disableUser(db: Db, typed: string): Promise<ConsoleUser> {
  const name = userName(typed);
  return db.transaction(async (tx) => {
    const [row] = await queryRows(
      tx,
      sql`UPDATE console_users SET disabled_at = coalesce(disabled_at, now())
        WHERE lower(name) = lower(${name}) RETURNING ${COLUMNS}`,
    );
    if (!row) throw new WorkflowError("invalid", `no account is named ${name}`, "name");
    await queryRows(tx, sql`DELETE FROM console_sessions WHERE user_name = ${String(row.name)}`);
    return toUser(row);
  });
}

/**
 * Limits account `typed` (any case) to `entities` (null: every entity). Sessions read the limit
 * with every request, so it holds from the account's next page. Unknown name: a WorkflowError.
 */
export async function setUserEntities(
  db: Db,
  typed: string,
  entities: readonly string[] | null,
): Promise<ConsoleUser> {
  const name = userName(typed);
  const [row] = await queryRows(
    db,
    sql`UPDATE console_users SET entities = ${entitiesValue(entities)}
      WHERE lower(name) = lower(${name}) RETURNING ${COLUMNS}`,
  );
  if (!row) throw new WorkflowError("invalid", `no account is named ${name}`, "name");
  return toUser(row);
}

/**
 * Gives account `typed` (any case) a new password, answered once; its sessions end. Refused for
 * a disabled account (it stays disabled: the operator meant that) and an unknown name.
 */
export async function resetPassword(
  db: Db,
  typed: string,
): Promise<{ user: ConsoleUser; password: string }> {
  const name = userName(typed);
  const password = newPassword();
  const hash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const [row] = await queryRows(
      tx,
      sql`UPDATE console_users SET password_hash = ${hash}
        WHERE lower(name) = lower(${name}) AND disabled_at IS NULL RETURNING ${COLUMNS}`,
    );
    if (!row)
      throw new WorkflowError("invalid", `no account that can sign in is named ${name}`, "name");
    await queryRows(tx, sql`DELETE FROM console_sessions WHERE user_name = ${String(row.name)}`);
    return { user: toUser(row), password };
  });
}

/** How many accounts can sign in (not disabled). */
export async function activeUserCount(db: Db): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM console_users WHERE disabled_at IS NULL`,
  );
  return Number(row?.n ?? 0);
}

/** The account `typed` names (any case) with its hash, for a sign-in; undefined when none. */
export async function userForSignIn(
  db: Db,
  typed: string,
): Promise<{ name: string; role: Role; passwordHash: string; disabled: boolean } | undefined> {
  const [row] = await queryRows(
    db,
    sql`SELECT name, role, password_hash, disabled_at IS NOT NULL AS disabled FROM console_users
      WHERE lower(name) = lower(${typed})`,
  );
  if (!row) return undefined;
  return {
    name: String(row.name),
    role: row.role as Role,
    passwordHash: String(row.password_hash),
    disabled: row.disabled === true,
  };
}

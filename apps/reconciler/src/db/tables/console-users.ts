// Who may use the console and as whom: one account per person with a role (viewer, preparer,
// approver) and a scrypt hash of their password (workflow/password-hash.ts), their signed-in
// sessions (the cookie's SHA-256, never the cookie), every sign-in attempt (the throttle counts
// failures per name and per address), and the accepts and write-offs waiting for a second
// approver (maker-checker: workflow/approvals.ts).
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  date,
  index,
  numeric,
  pgTable,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { time } from "./column-types";

export const consoleUsers = pgTable(
  "console_users",
  {
    /** The person's name as the audit trail shows it (typed-text.ts personName). */
    name: text("name").primaryKey(),
    role: text("role").notNull(),
    /** scrypt$N$r$p$salt$hash (base64url), never the password. */
    passwordHash: text("password_hash").notNull(),
    createdAt: time("created_at").notNull().defaultNow(),
    /** Set: the account can no longer sign in, and its sessions are gone. */
    disabledAt: time("disabled_at"),
    lastSignInAt: time("last_sign_in_at"),
    /**
     * The entities the account sees and acts on ('' the merchant itself, a sub-merchant's
     * merchantNo); null: every entity.
     */
    entities: text("entities").array(),
  },
  (t) => [
    check("console_users_role_check", sql`${t.role} in ('viewer', 'preparer', 'approver')`),
    // One account per name whatever its case: "Alice" and "alice" are one person in the trail.
    uniqueIndex("console_users_name_ci_idx").on(sql`lower(${t.name})`),
  ],
);

export const consoleSessions = pgTable(
  "console_sessions",
  {
    /** SHA-256 (hex) of the session cookie's value: a copy of the table signs nobody in. */
    idHash: text("id_hash").primaryKey(),
    userName: text("user_name")
      .notNull()
      .references(() => consoleUsers.name, { onDelete: "cascade" }),
    /** Sent back in every form of the session's pages; a POST without it is refused. */
    formToken: text("form_token").notNull(),
    createdAt: time("created_at").notNull().defaultNow(),
    expiresAt: time("expires_at").notNull(),
  },
  (t) => [index("console_sessions_user_idx").on(t.userName)],
);

export const consoleSignIns = pgTable(
  "console_sign_ins",
  {
    id: bigint("id", { mode: "bigint" }).primaryKey().generatedAlwaysAsIdentity(),
    at: time("at").notNull().defaultNow(),
    /** The name typed (normalised, lower case, at most 100 characters), known or not. */
    name: text("name").notNull(),
    /** The client's address as the console's socket saw it. */
    address: text("address").notNull(),
    ok: boolean("ok").notNull(),
  },
  (t) => [
    index("console_sign_ins_name_idx").on(t.name, t.at),
    index("console_sign_ins_address_idx").on(t.address, t.at),
    // Attempts past the retention are deleted by time at each sign-in.
    index("console_sign_ins_at_idx").on(t.at),
  ],
);

export const approvalRequests = pgTable(
  "approval_requests",
  {
    id: bigint("id", { mode: "bigint" }).primaryKey().generatedAlwaysAsIdentity(),
    breakId: text("break_id").notNull(),
    /** accept or write_off. */
    action: text("action").notNull(),
    requestedBy: text("requested_by").notNull(),
    requestedAt: time("requested_at").notNull().defaultNow(),
    reason: text("reason").notNull(),
    /** A write-off's account and accounting date. */
    account: text("account"),
    entryDate: date("entry_date"),
    /** The break's figures when requested: a run that changes them makes the approval refused. */
    amount: numeric("amount").notNull(),
    currency: text("currency"),
    providerAmount: numeric("provider_amount"),
    ledgerAmount: numeric("ledger_amount"),
    /** The audit row of the request (break_actions, action request_approval). */
    requestActionId: bigint("request_action_id", { mode: "bigint" }).notNull(),
    /** approved or declined, by whom and when; null while pending. */
    decision: text("decision"),
    decidedBy: text("decided_by"),
    decidedAt: time("decided_at"),
  },
  (t) => [
    check("approval_requests_action_check", sql`${t.action} in ('accept', 'write_off')`),
    check(
      "approval_requests_decision_check",
      sql`${t.decision} is null or ${t.decision} in ('approved', 'declined')`,
    ),
    // One pending request per break.
    uniqueIndex("approval_requests_pending_idx").on(t.breakId).where(sql`${t.decidedAt} is null`),
  ],
);

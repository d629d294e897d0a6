// `reconciler users add NAME --role viewer|preparer|approver [--limit-to MERCHANT_NO|SUB,...]`,
// `users set-entities NAME --limit-to MERCHANT_NO|SUB,...|all`, `users list`, `users disable NAME`,
// `users reset-password NAME`:
// the console's accounts (workflow/console-users.ts), managed by whoever runs the reconciler on
// its machine. `users add` and `users reset-password` print the account's password once (stdout;
// only its scrypt hash is stored): hand it to the person. A disabled account's sessions end at
// once, and so do an account's when its password is reset. --limit-to limits what the account
// sees and acts on in the console to those entities (entity-flag.ts checks each against
// MERCHANT_NO and RECONCILER_ENTITIES); without it, or with `all`, every entity. Not
// `--entities`: that flag is RECONCILER_ENTITIES's on every command.
import * as v from "valibot";
import { EXIT } from "../../exit-codes";
import { table, terminalText } from "../../text-table";
import {
  addUser,
  type ConsoleUser,
  disableUser,
  listUsers,
  resetPassword,
  roleOf,
  setUserEntities,
  userName,
} from "../../workflow/console-users";
import type { Command, ParsedArgs } from "../command";
import { commandFlags, printOutcome, runOnDatabase } from "../command-support";
import { UsageError } from "../parse-args";
import { withFlagNames } from "./breaks-act";
import { shownEntity, storedEntities } from "./entity-flag";

type EntityConfig = Parameters<typeof storedEntities>[1];

const entitiesFlag = v.pipe(v.string("needs entities"), v.trim(), v.minLength(1, "needs entities"));

/** --limit-to as stored (null: every entity, `all` or the flag left out). */
const entitiesOf = (typed: string | undefined, config: EntityConfig): string[] | null =>
  typed === undefined || typed.toLowerCase() === "all"
    ? null
    : storedEntities(typed, config, "--limit-to");

/** What `users list` shows of an account's limit: "all", or its entities as configured. */
const entitiesText = (entities: readonly string[] | null, config: EntityConfig): string =>
  entities === null ? "all" : entities.map((e) => shownEntity(e, config)).join(",");

const ENTITIES = "--limit-to MERCHANT_NO|SUB_MERCHANT,...";
const addUsage = `reconciler users add NAME --role viewer|preparer|approver [${ENTITIES}]`;
const setEntitiesUsage = `reconciler users set-entities NAME ${ENTITIES}|all`;
const listUsage = "reconciler users list";
const disableUsage = "reconciler users disable NAME";
const resetUsage = "reconciler users reset-password NAME";

/** Prints an account's new password, once: readable on a terminal, one JSON line otherwise. */
function printPassword(
  io: Parameters<Command["run"]>[1],
  msg: string,
  user: ConsoleUser,
  password: string,
  config: EntityConfig,
): void {
  const entities = entitiesText(user.entities, config);
  printOutcome(
    io,
    `${msg} ${user.name} (${user.role}, entities: ${entities}). Password, shown this once: ${password}\nGive it to ${user.name}: they sign in to the console with their name and it.`,
    { msg: `user ${msg}`, name: user.name, role: user.role, entities, password },
  );
}

/** The one NAME word of `users add|disable`. */
function nameWord(words: readonly string[], command: string): string {
  const [name, ...rest] = words;
  if (name === undefined) throw new UsageError(`users ${command} needs the person's NAME`);
  if (rest.length > 0)
    throw new UsageError(`unexpected words: ${rest.join(" ")} (quote a name with spaces)`);
  return name;
}

/** The account name of a command taking only NAME, normalised. */
function nameOnly(args: ParsedArgs, command: string): string {
  commandFlags(args, {}, { positional: true });
  const typed = nameWord(args.positional, command);
  return withFlagNames(() => userName(typed), { name: "NAME" });
}

export const usersAddCommand: Command = {
  name: "users add",
  summary: "add a console account with a role; prints its password once",
  usage: addUsage,
  run(args, io) {
    const check = () => {
      const flags = commandFlags(
        args,
        {
          role: v.optional(v.string("needs viewer, preparer or approver")),
          "limit-to": v.optional(entitiesFlag),
        },
        { positional: true },
      );
      const typed = nameWord(args.positional, "add");
      const input = withFlagNames(() => ({ name: userName(typed), role: roleOf(flags.role) }), {
        name: "NAME",
        role: "--role",
      });
      return { ...input, entities: flags["limit-to"] };
    };
    return runOnDatabase(args, io, addUsage, check, async ({ db }, input, config) => {
      const entities = entitiesOf(input.entities, config);
      const { user, password } = await addUser(db, { ...input, entities });
      printPassword(io, "added", user, password, config);
      return EXIT.ok;
    });
  },
};

export const usersListCommand: Command = {
  name: "users list",
  summary: "the console's accounts: name, role, entities, added, last sign-in, disabled",
  usage: listUsage,
  run(args, io) {
    const check = () => {
      commandFlags(args, {}, { positional: true });
      if (args.positional.length > 0)
        throw new UsageError(`unexpected words: ${args.positional.join(" ")}`);
    };
    return runOnDatabase(args, io, listUsage, check, async ({ db }, _checked, config) => {
      const users = await listUsers(db);
      if (!io.isTty) {
        for (const u of users)
          io.out(JSON.stringify({ ...u, entities: entitiesText(u.entities, config) }));
        return EXIT.ok;
      }
      io.out(
        terminalText(
          table(
            ["name", "role", "entities", "added", "last sign-in", "disabled"],
            users.map((u) => [
              u.name,
              u.role,
              entitiesText(u.entities, config),
              u.createdAt,
              u.lastSignInAt ?? "",
              u.disabledAt ?? "",
            ]),
          ),
        ),
      );
      return EXIT.ok;
    });
  },
};

export const usersDisableCommand: Command = {
  name: "users disable",
  summary: "disable a console account (it can no longer sign in; its sessions end)",
  usage: disableUsage,
  run(args, io) {
    const check = () => nameOnly(args, "disable");
    return runOnDatabase(args, io, disableUsage, check, async ({ db }, name) => {
      const user = await disableUser(db, name);
      printOutcome(io, `disabled ${user.name} at ${user.disabledAt}`, {
        msg: "user disabled",
        ...user,
      });
      return EXIT.ok;
    });
  },
};

export const usersResetPasswordCommand: Command = {
  name: "users reset-password",
  summary: "give a console account a new password (printed once); its sessions end",
  usage: resetUsage,
  run(args, io) {
    const check = () => nameOnly(args, "reset-password");
    return runOnDatabase(args, io, resetUsage, check, async ({ db }, name, config) => {
      const { user, password } = await resetPassword(db, name);
      printPassword(io, "password reset for", user, password, config);
      return EXIT.ok;
    });
  },
};

export const usersSetEntitiesCommand: Command = {
  name: "users set-entities",
  summary: "limit a console account to entities (all: every entity), from its next page on",
  usage: setEntitiesUsage,
  run(args, io) {
    const check = () => {
      const flags = commandFlags(
        args,
        { "limit-to": v.optional(entitiesFlag) },
        { positional: true },
      );
      const typed = nameWord(args.positional, "set-entities");
      const limit = flags["limit-to"];
      if (limit === undefined)
        throw new UsageError(
          "--limit-to: needs the entities (MERCHANT_NO|SUB_MERCHANT,...) or all",
        );
      return { name: withFlagNames(() => userName(typed), { name: "NAME" }), typed: limit };
    };
    return runOnDatabase(args, io, setEntitiesUsage, check, async ({ db }, input, config) => {
      const user = await setUserEntities(db, input.name, entitiesOf(input.typed, config));
      const entities = entitiesText(user.entities, config);
      printOutcome(io, `${user.name} sees entities: ${entities}`, {
        msg: "user entities set",
        name: user.name,
        entities,
      });
      return EXIT.ok;
    });
  },
};

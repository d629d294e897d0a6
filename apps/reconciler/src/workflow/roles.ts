// What each console role may do. Roles nest: a preparer does what a viewer does, an approver
// what a preparer does. viewer: reads every page and downloads exports; preparer: comments,
// assigns, unassigns and rejects proposals; approver: accepts, reopens, writes off, confirms
// proposals, matches records manually (and undoes such a match) and approves (or declines) another approver's pending accept or write-off.
export const ROLES = ["viewer", "preparer", "approver"] as const;
export type Role = (typeof ROLES)[number];

export type Capability =
  | "comment"
  | "assign"
  | "unassign"
  | "reject"
  | "accept"
  | "reopen"
  | "write_off"
  | "confirm"
  | "match"
  | "unmatch"
  | "approve";

const NEEDS: Record<Capability, Role> = {
  comment: "preparer",
  assign: "preparer",
  unassign: "preparer",
  reject: "preparer",
  accept: "approver",
  reopen: "approver",
  write_off: "approver",
  confirm: "approver",
  match: "approver",
  unmatch: "approver",
  approve: "approver",
};

/** The role `capability` needs at least. */
export const roleNeeded = (capability: Capability): Role => NEEDS[capability];

/** Whether `role` may do `capability`. */
export function may(role: Role, capability: Capability): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(NEEDS[capability]);
}

export const isRole = (value: string): value is Role =>
  (ROLES as readonly string[]).includes(value);

// What people type into the audit trail, checked in one place for the CLI and the console: names
// (who acts, who a break is assigned to) and free text (reasons, comments). The trail is
// append-only, so what it keeps is decided here: no control characters (a NUL cannot even be
// stored), card numbers masked the way ledger descriptions are, names normalised before they
// are compared with the reserved ones.
import { maskCardData } from "../store/mask-card-data";
import { WorkflowError } from "./workflow-error";

const MAX_NAME = 100;
const MAX_TEXT = 2000;

/** The actor of the audit rows the reconciler writes itself (lapses): no person signs with it. */
export const RECONCILER_ACTOR = "reconciler";

/** The queue filter's word for "nobody has it" (`breaks list --assignee none`, the console's). */
export const UNASSIGNED_FILTER = "none";

// C0, DEL and C1. Free text keeps tab, line feed and carriage return (a textarea sends CRLF).
const CONTROL = /\p{Cc}/u;
const TEXT_CONTROL = /[^\P{Cc}\t\n\r]/u;
// What shows as nothing: zero-width and joiner characters, bidi controls, the soft hyphen,
// variation selectors, Hangul fillers (Default_Ignorable_Code_Point), the other format
// characters (Cf) and the blank Braille pattern.
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cf}\u2800]/gu;
// Bidi controls (embeddings, overrides, isolates, marks): in free text they can show a reason's
// words or figures in another order than stored. Other invisible characters stay (joiners are
// part of how some scripts and emoji are written).
const BIDI_CONTROL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

// Letters of other scripts drawn like the Latin ones of "reconciler" (after lower-casing).
const LOOKALIKES: Record<string, string> = {
  "\u0430": "a", // Cyrillic а
  "\u0435": "e", // е
  "\u0455": "s", // ѕ
  "\u0456": "i", // і
  "\u04cf": "l", // ӏ
  "\u043e": "o", // о
  "\u0440": "p", // р
  "\u0441": "c", // с
  "\u0433": "r", // г
  "\u03bf": "o", // Greek ο
  "\u03b9": "i", // ι
  "\u03f2": "c", // ϲ (lunate sigma)
  "\u0131": "i", // Latin dotless ı
  "\u0269": "i", // ɩ
};
const LOOKALIKE = new RegExp(`[${Object.keys(LOOKALIKES).join("")}]`, "gu");

/** The first control character of `text` as "U+0000 at character 7", or undefined. */
function controlAt(text: string, pattern: RegExp): string | undefined {
  const found = pattern.exec(text);
  if (!found) return undefined;
  const code = (found[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0");
  return `U+${code} at character ${found.index + 1}`;
}

function refuseControls(text: string, field: string, pattern: RegExp): void {
  const where = controlAt(text, pattern);
  if (where)
    throw new WorkflowError(
      "invalid",
      `${field} must not hold control characters (${where}): type it again without them`,
      field,
    );
}

/** Card numbers masked exactly as in a ledger description (ledger-row.ts, mask-card-data.ts). */
export function maskCardNumbers(text: string): string {
  return maskCardData({ description: text }, false).description;
}

/**
 * A person's name as the audit trail keeps it: NFKC (full-width and compatibility forms folded),
 * control characters refused, invisible characters taken out, runs of spaces made one, trimmed,
 * card numbers masked; then required, at most 100 characters, and never the reconciler's own
 * name (in any case, with invisible characters or look-alike letters). `field` names it in errors
 * (actor, assignee), `what` says what it is for when it is missing.
 */
export function personName(value: string | undefined, field: string, what: string): string {
  const folded = (value ?? "").normalize("NFKC");
  refuseControls(folded, field, CONTROL);
  const name = maskCardNumbers(folded.replace(INVISIBLE, "").replace(/\s+/gu, " ").trim());
  if (name === "") throw new WorkflowError("invalid", `${field} is required: ${what}`, field);
  if (name.length > MAX_NAME)
    throw new WorkflowError("invalid", `${field} must be at most ${MAX_NAME} characters`, field);
  // The audit trail must tell a person's action from the reconciler's own (a lapse).
  if (name.toLowerCase().replace(LOOKALIKE, (c) => LOOKALIKES[c] ?? c) === RECONCILER_ACTOR)
    throw new WorkflowError(
      "invalid",
      `${field} "${name}" is the name the reconciler signs its own audit rows with: ${field === "assignee" ? "name a person" : "act under your own name"}`,
      field,
    );
  return name;
}

/** The name a break is assigned to: a person's name, and never the filter's "none". */
export function assigneeName(value: string | undefined): string {
  const name = personName(value, "assignee", "the name the break is assigned to");
  if (name.toLowerCase() === UNASSIGNED_FILTER)
    throw new WorkflowError(
      "invalid",
      `assignee "${name}" cannot be a name: "${UNASSIGNED_FILTER}" is the queue filter's word for unassigned breaks (breaks list --assignee none, the console's Assignee filter); name the person`,
      "assignee",
    );
  return name;
}

/**
 * A reason or comment as the audit trail keeps it: NFKC, bidi controls taken out, trimmed,
 * required, at most 2,000 characters, control characters refused (tab and line breaks kept),
 * card numbers masked.
 */
export function freeText(value: string | undefined, field: string, what: string): string {
  // NFKC first: full-width digits (４１１１ …) are digits to the card-number rule only folded.
  const text = (value ?? "").normalize("NFKC").replace(BIDI_CONTROL, "").trim();
  if (text === "") throw new WorkflowError("invalid", `${field} is required: ${what}`, field);
  if (text.length > MAX_TEXT)
    throw new WorkflowError("invalid", `${field} must be at most ${MAX_TEXT} characters`, field);
  refuseControls(text, field, TEXT_CONTROL);
  return maskCardNumbers(text);
}

/** A break id as given, trimmed: required, at most 200 characters. */
export function requiredBreakId(value: string | undefined): string {
  const breakId = (value ?? "").trim();
  if (breakId === "" || breakId.length > 200)
    throw new WorkflowError(
      "invalid",
      "breakId is required: the break's id (at most 200 characters)",
      "breakId",
    );
  return breakId;
}

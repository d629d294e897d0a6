/**
 * Checks a beneficiary draft against a queryPaymentFeild template without calling the service:
 * every "Y" key must hold a value; "C" keys (needed under conditions only the service knows)
 * are listed when empty so a form can ask for them. Works offline with a stored template.
 */
import type {
  AccountInfomation,
  BeneficiaryAddress,
  FieldRequirement,
  PaymentFieldTemplate,
  ReceiverInfo,
} from "./types";

/** The three parts the template describes, as far as the user has filled them in. */
export interface BeneficiaryDraft {
  receiverInfo?: Partial<ReceiverInfo> | Record<string, unknown> | undefined;
  address?: Partial<BeneficiaryAddress> | Record<string, unknown> | undefined;
  accountInfomation?: Partial<AccountInfomation> | Record<string, unknown> | undefined;
}

export const BENEFICIARY_PARTS = ["receiverInfo", "address", "accountInfomation"] as const;
export type BeneficiaryPart = (typeof BENEFICIARY_PARTS)[number];

type KeysByPart = Record<BeneficiaryPart, string[]>;

export interface DraftReport {
  /** True when no required ("Y") key is missing. */
  ok: boolean;
  /** Required ("Y") keys without a value, per part, in template order. */
  missing: KeysByPart;
  /** Conditional ("C") keys without a value, per part: ask for them, the service may need them. */
  conditional: KeysByPart;
  /** Every missing required key as "part.key", e.g. "accountInfomation.cardNumber". */
  missingPaths: string[];
}

/** Absent, null or blank text counts as not filled in (the service reads them so). */
function filled(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  return typeof value !== "string" || value.trim().length > 0;
}

function keysWith(
  template: Record<string, FieldRequirement>,
  requirement: FieldRequirement,
  part: Record<string, unknown> | undefined,
): string[] {
  return Object.entries(template)
    .filter(([key, value]) => value === requirement && !filled(part?.[key]))
    .map(([key]) => key);
}

export function checkBeneficiaryDraft(
  template: Pick<PaymentFieldTemplate, BeneficiaryPart>,
  draft: BeneficiaryDraft,
): DraftReport {
  const missing = {} as KeysByPart;
  const conditional = {} as KeysByPart;
  const missingPaths: string[] = [];
  for (const part of BENEFICIARY_PARTS) {
    const values = draft[part] as Record<string, unknown> | undefined;
    missing[part] = keysWith(template[part], "Y", values);
    conditional[part] = keysWith(template[part], "C", values);
    for (const key of missing[part]) missingPaths.push(`${part}.${key}`);
  }
  return { ok: missingPaths.length === 0, missing, conditional, missingPaths };
}

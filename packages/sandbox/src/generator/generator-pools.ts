/**
 * The generator's fixed vocabulary: cardholder names, decline reasons, and the kinds of
 * transaction chains with their weights (how often each appears) and their most records.
 */

export const FIRST_NAMES = [
  "Ada",
  "Alan",
  "Grace",
  "Linus",
  "Margaret",
  "Dennis",
  "Barbara",
  "Ken",
  "Frances",
  "Edsger",
  "Radia",
  "Tim",
  "Hedy",
  "John",
  "Katherine",
  "Donald",
  "Sophie",
  "Wei",
  "Priya",
  "Mateo",
  "Aisha",
  "Kenji",
  "Olga",
  "Lucas",
  "Mei",
  "Omar",
  "Ingrid",
  "Diego",
  "Yuki",
  "Chloe",
];

export const LAST_NAMES = [
  "Lovelace",
  "Turing",
  "Hopper",
  "Torvalds",
  "Hamilton",
  "Ritchie",
  "Liskov",
  "Thompson",
  "Allen",
  "Dijkstra",
  "Perlman",
  "Lee",
  "Lamarr",
  "Backus",
  "Johnson",
  "Knuth",
  "Wilson",
  "Zhang",
  "Patel",
  "Garcia",
  "Khan",
  "Sato",
  "Ivanova",
  "Silva",
  "Chen",
  "Haddad",
  "Berg",
  "Lopez",
  "Tanaka",
  "Martin",
];

export const NATIONALITIES = ["US", "GB", "DE", "FR", "SG", "HK", "JP", "CN", "IN", "BR"];

export const DECLINE_REASONS = [
  "Insufficient funds",
  "Do not honor",
  "Invalid CVV",
  "Expired card",
  "Suspected fraud",
  "Exceeds withdrawal limit",
];

export type ChainKind =
  | "DECLINE"
  | "VERIFY"
  | "SIMPLE"
  | "PARTIAL"
  | "REVERSAL"
  | "REVERSAL_PARTIAL"
  | "REFUND"
  | "REFUND2"
  | "STALE";

export interface ChainSpec {
  kind: ChainKind;
  weight: number;
  /** Records the chain makes at most (the draw never picks a chain larger than the budget left). */
  maxRecords: number;
}

export const CHAINS: readonly ChainSpec[] = [
  { kind: "SIMPLE", weight: 62, maxRecords: 2 },
  { kind: "REFUND", weight: 9, maxRecords: 3 },
  { kind: "DECLINE", weight: 5, maxRecords: 1 },
  { kind: "REVERSAL", weight: 5, maxRecords: 2 },
  { kind: "PARTIAL", weight: 4, maxRecords: 4 },
  { kind: "VERIFY", weight: 3, maxRecords: 1 },
  { kind: "REVERSAL_PARTIAL", weight: 1, maxRecords: 3 },
  { kind: "REFUND2", weight: 1, maxRecords: 4 },
  { kind: "STALE", weight: 1, maxRecords: 1 },
];

/** Chain kinds that fit in `budget` records, with their cumulative weights, for one draw. */
export interface ChainTable {
  kinds: ChainKind[];
  cumulative: number[];
  total: number;
}

const tables = new Map<number, ChainTable>();

export function chainTable(budget: number): ChainTable {
  const key = Math.min(budget, 4);
  let table = tables.get(key);
  if (!table) {
    const fit = CHAINS.filter((c) => c.maxRecords <= key);
    let sum = 0;
    table = { kinds: [], cumulative: [], total: 0 };
    for (const c of fit) {
      sum += c.weight;
      table.kinds.push(c.kind);
      table.cumulative.push(sum);
    }
    table.total = sum;
    tables.set(key, table);
  }
  return table;
}

export function drawChain(budget: number, r: number): ChainKind {
  const table = chainTable(budget);
  const x = r * table.total;
  for (let i = 0; i < table.cumulative.length; i++) {
    if (x < (table.cumulative[i] as number)) return table.kinds[i] as ChainKind;
  }
  return table.kinds[table.kinds.length - 1] as ChainKind;
}

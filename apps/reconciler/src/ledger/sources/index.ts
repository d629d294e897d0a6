// The ledger sources a cycle takes in, in this order (the folder first). A new source is its
// file here (a LedgerSource, ledger-source.ts) and its line below.
import type { LedgerSource } from "../ledger-source";
import { folderSource } from "./folder";
import { querySource } from "./query";

export const LEDGER_SOURCES: readonly LedgerSource[] = [folderSource, querySource];

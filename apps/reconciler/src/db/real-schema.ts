/**
 * The schema of the real tables, quoted: current_schema() skips the temporary schema unless
 * search_path names it, so it names the real tables while an incremental run's temporary copies
 * of them exist too (match/incremental/scoped-tables.ts).
 */
export const REAL_SCHEMA = "SELECT quote_ident(current_schema()) AS schema";

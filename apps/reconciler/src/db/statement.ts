// One named SQL statement of a multi-statement job (a match run, taking the change log), so a
// failure or a timing names the statement, not only the text.
import type { Db } from "./database";

export interface Statement {
  name: string;
  text: string;
  /**
   * A temporary work table the statement grows, analysed after it when it wrote rows (one that
   * wrote none leaves the table, and so its statistics, as they were).
   */
  analyze?: string;
}

/** Runs a statement of the run, timed (and its work table analysed when it grew). */
export type RunStatement = (tx: Db, statement: Statement) => Promise<void>;

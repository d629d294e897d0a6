// The merchant's ledger database as a source: RECONCILER_LEDGER_QUERY run read-only on
// RECONCILER_LEDGER_URL every cycle, its rows imported.
import { describeDatabaseUrl } from "../../db/reach-database";
import { logEvent } from "../../log-event";
import { errorText } from "../../store/error-text";
import { ledgerEntitiesOf } from "../ledger-row";
import type { LedgerIntake, LedgerSource } from "../ledger-source";
import { intakeLedgerQuery, LedgerQueryError } from "../query-source";

export const querySource: LedgerSource = {
  name: "query",
  intake(db, config) {
    const query = config.ledgerQuery;
    if (!query) return undefined;
    return intakeLedgerQuery(db, { ...query, entities: ledgerEntitiesOf(config) }).then(
      (done): LedgerIntake => ({
        state: "done",
        summary: {
          source: done.source,
          rows: done.rows,
          inserted: done.inserted,
          updated: done.updated,
          ...(done.deleted === undefined ? {} : { deleted: done.deleted }),
        },
        logLines: () => {},
      }),
      (error: unknown): LedgerIntake => {
        // Named by host, port and database (the URL may hold a password), as the intake does.
        const source = describeDatabaseUrl(query.url);
        const refused = error instanceof LedgerQueryError && error.kind === "refused";
        const text = errorText(error);
        return {
          state: refused ? "refused" : "failed",
          summary: { source, error: text, ...(refused ? { refused: true } : {}) },
          logLines: (log) =>
            logEvent({ log }, "error", refused ? "ledger query refused" : "ledger query failed", {
              source,
              error: text,
            }),
        };
      },
    );
  },
};

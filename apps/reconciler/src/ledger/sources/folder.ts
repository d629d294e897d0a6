// The ledger folder as a source: new CSV files dropped in RECONCILER_LEDGER_DIR, taken in by one
// worker at a time (the folder's stream lock).
import { logEvent } from "../../log-event";
import { errorText } from "../../store/error-text";
import { STREAM_BUSY, withStreamLock } from "../../store/stream-lock";
import { logFolderIntake } from "../folder-intake-log";
import { type FolderIntake, intakeLedgerFolder } from "../folder-source";
import { ledgerEntitiesOf } from "../ledger-row";
import type { LedgerIntake, LedgerSource } from "../ledger-source";

function intakeOf(folder: FolderIntake): LedgerIntake {
  const refused = folder.files.some((f) => f.status === "rejected");
  return {
    state: folder.error !== undefined ? "failed" : refused ? "refused" : "done",
    summary: {
      imported: folder.files
        .filter((f) => f.status === "imported")
        .map((f) => ({ name: f.name, rows: f.rows, sha256: f.sha256 })),
      duplicates: folder.files.filter((f) => f.status === "duplicate").map((f) => f.name),
      rejected: folder.files
        .filter((f) => f.status === "rejected")
        .map((f) => ({ name: f.name, badRows: f.rows, reason: f.reason })),
      waiting: folder.waiting,
      // Files it could not finish: beside the lists, which say what the tick did all the same.
      ...(folder.error === undefined ? {} : { error: folder.error }),
    },
    logLines: (log) => logFolderIntake(folder, log),
  };
}

export const folderSource: LedgerSource = {
  name: "folder",
  intake(db, config) {
    const dir = config.ledgerDir;
    if (!dir) return undefined;
    return withStreamLock(db, "ledger-folder", () =>
      intakeLedgerFolder(db, dir, { entities: ledgerEntitiesOf(config) }),
    ).then(
      (folder): LedgerIntake =>
        folder === STREAM_BUSY
          ? { state: "busy", summary: "busy", logLines: () => {} }
          : intakeOf(folder),
      (error: unknown): LedgerIntake => {
        const text = errorText(error);
        return {
          state: "failed",
          summary: { error: text },
          logLines: (log) => logEvent({ log }, "error", "ledger folder failed", { error: text }),
        };
      },
    );
  },
};

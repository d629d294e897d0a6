// The log lines a ledger folder intake calls for besides the cycle's summary line: an error per
// file moved to rejected/ (exit 5) and per file the cycle could not finish (exit 1), and once
// per cycle a warning naming the files dated ahead of this machine's clock (taken all the same:
// settled-drops.ts).

import { logEvent } from "../log-event";
import { errorText } from "../store/error-text";
import type { FolderIntake } from "./folder-source";

export function logFolderIntake(intake: FolderIntake, log: (line: string) => void): void {
  // The exit-code table says to read the error line: the summary line alone named the file.
  // The reason quotes the bad values (an amount column holding a card number): masked here.
  for (const f of intake.files)
    if (f.status === "rejected")
      logEvent({ log }, "error", "ledger file rejected", {
        file: f.name,
        movedTo: f.movedTo,
        reason: errorText(f.reason ?? ""),
      });
  for (const f of intake.failed)
    logEvent({ log }, "error", "ledger file not finished", {
      file: f.name,
      at: f.at,
      error: f.error,
    });
  if (intake.aheadOfClock.length > 0)
    logEvent({ log }, "warn", "ledger files dated ahead of this machine's clock; set it right", {
      files: intake.aheadOfClock.map((f) => ({
        name: f.name,
        aheadSeconds: Math.round(f.aheadMs / 1_000),
      })),
    });
}

// The log lines a ledger folder intake calls for besides the cycle's summary line: an error per
// file the cycle could not finish, and once per cycle a warning naming the files dated ahead of
// this machine's clock (taken all the same: settled-drops.ts).
import { logEvent } from "../sync/log-event";
import type { FolderIntake } from "./folder-source";

export function logFolderIntake(intake: FolderIntake, log: (line: string) => void): void {
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

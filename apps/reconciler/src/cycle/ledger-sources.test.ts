// The cycle's summary and exit code know ledger sources only through the LedgerSource contract:
// a source they have never heard of (a throwaway "sftp" here) is summarised under its name and
// sets the exit code by its state alone.
import { describe, expect, it } from "vitest";
import { EXIT } from "../exit-codes";
import type { IntakeState, LedgerIntake } from "../ledger/ledger-source";
import { LEDGER_SOURCES } from "../ledger/sources";
import { cycleExitCode, cycleSummaryLine } from "./cycle-summary";
import type { CycleResult } from "./run-cycle";

function cycleWith(state: IntakeState): CycleResult {
  const intake: LedgerIntake = { state, summary: { files: 2, state }, logLines: () => {} };
  return {
    ledger: { sftp: intake },
    sync: "skipped",
    match: "skipped",
    report: undefined,
    entitiesRefused: [],
    interrupted: false,
    durationsMs: { ledger: 1, sync: 0, match: 0, report: 0, total: 1 },
  };
}

describe("ledger sources", () => {
  it("registers the folder and the query, by unique names", () => {
    const names = LEDGER_SOURCES.map((s) => s.name);
    expect(names).toEqual(["folder", "query"]);
  });

  it("turns any source's state into the cycle's exit code", () => {
    expect(cycleExitCode(cycleWith("done"))).toBe(EXIT.ok);
    expect(cycleExitCode(cycleWith("refused"))).toBe(EXIT.ledgerRejected);
    expect(cycleExitCode(cycleWith("failed"))).toBe(EXIT.failed);
    expect(cycleExitCode(cycleWith("busy"))).toBe(EXIT.unread);
  });

  it("says what the source said under its name, and waits for a busy one", () => {
    const line = JSON.parse(cycleSummaryLine(cycleWith("busy"), EXIT.unread));
    expect(line.ledger).toEqual({ sftp: { files: 2, state: "busy" } });
    expect(line.verdict).toBe("incomplete");
  });
});

// Test support: a report without what moves with the clock (the sync's lag in minutes), so two
// reports read a moment apart compare equal when their data is.
import type { ReportData } from "../report/report-data";

export const withoutClock = (report: ReportData) => ({
  ...report,
  syncHealth: report.syncHealth.map(({ lagMinutes: _lag, ...health }) => health),
});

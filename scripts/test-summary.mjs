// Reads vitest's JSON report and prints the one line CI looks for: "N passed, N failed".
import { readFileSync } from "node:fs";

const file = process.argv[2] ?? ".vitest-report.json";
let report;
try {
  report = JSON.parse(readFileSync(file, "utf8"));
} catch (error) {
  console.log(`vitest: report ${file} unreadable (${error.message})`);
  console.log("0 passed, 1 failed");
  process.exit(1);
}
const failed = report.numFailedTests + countFilesFailedWithoutTests(report);
console.log(`vitest: ${report.numPassedTests} passed, ${failed} failed`);
process.exit(failed > 0 || report.success === false ? 1 : 0);

// A test file that failed without a failed test (it did not load, or a hook threw) counts as a
// failure of its own; one whose tests failed is counted by them. (numFailedTestSuites is not
// used: it counts describe blocks too, so one failed test inside a describe counted twice.)
function countFilesFailedWithoutTests(r) {
  return (r.testResults ?? []).filter(
    (s) => s.status === "failed" && !(s.assertionResults ?? []).some((a) => a.status === "failed"),
  ).length;
}

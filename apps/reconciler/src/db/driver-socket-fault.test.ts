import { describe, expect, it } from "vitest";
import { isDriverSocketFault } from "./driver-socket-fault";

describe("isDriverSocketFault", () => {
  it("accepts the driver's TypeError from a closed socket and its connection errors", () => {
    const fault = new TypeError("Cannot read properties of null (reading 'write')");
    fault.stack = `${fault.message}\n    at Immediate.nextWrite (file:///app/node_modules/postgres/src/connection.js:255:22)`;
    expect(isDriverSocketFault(fault)).toBe(true);
    const closed = Object.assign(new Error("write CONNECTION_CLOSED db:5432"), {
      code: "CONNECTION_CLOSED",
    });
    expect(isDriverSocketFault(closed)).toBe(true);
  });

  it("refuses the same TypeError from our own code, and other errors", () => {
    const ours = new TypeError("Cannot read properties of null (reading 'write')");
    ours.stack = `${ours.message}\n    at write (file:///app/src/report/write-report.ts:10:3)`;
    expect(isDriverSocketFault(ours)).toBe(false);
    expect(isDriverSocketFault(new Error("boom"))).toBe(false);
    expect(isDriverSocketFault("CONNECTION_CLOSED")).toBe(false);
  });
});

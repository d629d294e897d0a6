import { describe, expect, it } from "vitest";
import { causedByDriverSocketFault, isDriverSocketFault } from "./driver-socket-fault";

describe("isDriverSocketFault", () => {
  it("accepts the driver's TypeError from a closed socket and its connection errors", () => {
    const fault = new TypeError("Cannot read properties of null (reading 'write')");
    fault.stack = `${fault.message}\n    at Immediate.nextWrite (file:///app/node_modules/postgres/src/connection.js:255:22)`;
    expect(isDriverSocketFault(fault)).toBe(true);
    const closed = Object.assign(new Error("write CONNECTION_CLOSED db:5432"), {
      code: "CONNECTION_CLOSED",
    });
    expect(isDriverSocketFault(closed)).toBe(true);
    // A reset on a socket the driver stopped listening to, as Node reports it.
    const reset = Object.assign(new Error("read ECONNRESET"), {
      code: "ECONNRESET",
      syscall: "read",
    });
    expect(isDriverSocketFault(reset)).toBe(true);
    // pg_terminate_backend's answer, from a driver promise nobody awaited.
    const terminated = Object.assign(
      new Error("terminating connection due to administrator command"),
      { name: "PostgresError", code: "57P01" },
    );
    expect(isDriverSocketFault(terminated)).toBe(true);
  });

  it("refuses the same TypeError from our own code, and other errors", () => {
    const ours = new TypeError("Cannot read properties of null (reading 'write')");
    ours.stack = `${ours.message}\n    at write (file:///app/src/report/write-report.ts:10:3)`;
    expect(isDriverSocketFault(ours)).toBe(false);
    expect(isDriverSocketFault(new Error("boom"))).toBe(false);
    expect(isDriverSocketFault("CONNECTION_CLOSED")).toBe(false);
    // A refused connect is an answer to the caller, not a dropped socket.
    const refused = Object.assign(new Error("connect ECONNREFUSED"), {
      code: "ECONNREFUSED",
      syscall: "connect",
    });
    expect(isDriverSocketFault(refused)).toBe(false);
    // Any other server error is the caller's to handle.
    const unique = Object.assign(new Error("duplicate key"), {
      name: "PostgresError",
      code: "23505",
    });
    expect(isDriverSocketFault(unique)).toBe(false);
  });
});

describe("causedByDriverSocketFault", () => {
  const terminated = () =>
    Object.assign(new Error("terminating connection due to administrator command"), {
      name: "PostgresError",
      code: "57P01",
    });

  it("finds the fault under drizzle's wrapper, and nothing in a chain without one", () => {
    const wrapped = new Error("Failed query: select 1", { cause: terminated() });
    expect(isDriverSocketFault(wrapped)).toBe(false);
    expect(causedByDriverSocketFault(wrapped)).toBe(true);
    const refused = new Error("Failed query: insert", {
      cause: Object.assign(new Error("duplicate key"), { name: "PostgresError", code: "23505" }),
    });
    expect(causedByDriverSocketFault(refused)).toBe(false);
    expect(causedByDriverSocketFault(null)).toBe(false);
    expect(causedByDriverSocketFault("CONNECTION_CLOSED")).toBe(false);
  });

  it("ends on a chain of causes that loops back on itself", () => {
    const a = new Error("a");
    const b = new Error("b", { cause: a });
    a.cause = b;
    expect(causedByDriverSocketFault(a)).toBe(false);
  });
});

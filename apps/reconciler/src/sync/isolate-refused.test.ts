import {
  InvalidRequestError,
  NotFoundError,
  RequestValidationError,
  ServerError,
} from "@merchantkit/core";
import { describe, expect, it } from "vitest";
import { fetchIsolatingRefused } from "./isolate-refused";

const ids = Array.from({ length: 100 }, (_, i) => String(1_953_712_585_351_499_000n + BigInt(i)));

/** A fake listByServiceIds: one record per id, refusing any call that holds a bad id. */
function service(bad: Set<string>, refusal: () => Error) {
  const calls: string[][] = [];
  return {
    calls,
    fetch: async (part: string[]) => {
      calls.push(part);
      if (part.some((id) => bad.has(id))) throw refusal();
      return part.map((id) => ({ serviceId: id }));
    },
  };
}

describe("fetchIsolatingRefused", () => {
  it("reads a clean batch in one call", async () => {
    const s = service(new Set(), () => new Error("never"));
    const out = await fetchIsolatingRefused(ids, s.fetch);
    expect(out.calls).toBe(1);
    expect(out.fetched).toEqual(ids);
    expect(out.parked).toEqual([]);
  });

  it("isolates the ids the service refuses and reads every other one", async () => {
    const bad = new Set([ids[7] as string, ids[63] as string]);
    const s = service(
      bad,
      () =>
        new InvalidRequestError({
          message: "serviceId invalid (respCode 40000)",
          respCode: "40000",
          respMsg: "serviceId invalid",
          httpStatus: 200,
        }),
    );
    const out = await fetchIsolatingRefused(ids, s.fetch);
    expect(out.parked.map((p) => p.serviceId).sort()).toEqual([...bad].sort());
    expect(out.parked[0]?.reason).toMatch(/InvalidRequestError/);
    expect(out.fetched.sort()).toEqual(ids.filter((id) => !bad.has(id)).sort());
    expect(out.records).toHaveLength(98);
    // Halving: about 2·log2(100) calls per bad id, far fewer than one call per id.
    expect(out.calls).toBeLessThan(30);
  });

  it("isolates ids the SDK itself refuses to send", async () => {
    const s = service(
      new Set(["abc"]),
      () => new RequestValidationError([{ path: "serviceIds.0", message: "must be a 64-bit id" }]),
    );
    const out = await fetchIsolatingRefused(["abc", ...ids.slice(0, 3)], s.fetch);
    expect(out.parked).toEqual([
      { serviceId: "abc", reason: expect.stringContaining("64-bit id") },
    ]);
    expect(out.fetched).toEqual(ids.slice(0, 3));
  });

  it("keeps the whole batch due on a bare HTTP 404 or 413 without a business code", async () => {
    // A gateway or proxy answering for the service: nothing about the ids.
    for (const refusal of [
      () => new NotFoundError({ message: "HTTP 404", httpStatus: 404 }),
      () => new InvalidRequestError({ message: "HTTP 413", httpStatus: 413 }),
    ]) {
      const s = service(new Set([ids[0] as string]), refusal);
      await expect(fetchIsolatingRefused(ids, s.fetch)).rejects.toThrow(/HTTP 4/);
      expect(s.calls).toHaveLength(1);
    }
  });

  it("keeps the whole batch due on an error about the call, not the ids", async () => {
    const s = service(
      new Set([ids[0] as string]),
      () => new ServerError({ message: "HTTP 503", httpStatus: 503 }),
    );
    await expect(fetchIsolatingRefused(ids, s.fetch)).rejects.toBeInstanceOf(ServerError);
    expect(s.calls).toHaveLength(1);
  });
});

// Replay, conflict and the bound of the idempotency store.
import { describe, expect, it } from "vitest";
import { IdempotencyStore } from "./idempotency-store";

describe("IdempotencyStore", () => {
  it("replays the same fingerprint, refuses a different one", () => {
    const store = new IdempotencyStore();
    const key = IdempotencyStore.key("issuing.card.operate", "M1", "k1");
    expect(store.check(key, "a")).toEqual({ kind: "new" });
    store.store(key, { fingerprint: "a", text: "answer" });
    expect(store.check(key, "a")).toEqual({ kind: "replay", text: "answer" });
    expect(store.check(key, "b")).toEqual({ kind: "conflict" });
    expect(store.check(IdempotencyStore.key("issuing.card.operate", "M2", "k1"), "b")).toEqual({
      kind: "new",
    });
  });

  it("forgets the oldest keys beyond its capacity", () => {
    const store = new IdempotencyStore(2);
    for (const k of ["k1", "k2", "k3"]) store.store(k, { fingerprint: k, text: k });
    expect(store.size).toBe(2);
    expect(store.check("k1", "k1").kind).toBe("new");
    expect(store.check("k3", "k3").kind).toBe("replay");
  });
});

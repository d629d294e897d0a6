// The streamed dump is exactly stringifyJson's text, however it is sliced.
import { JsonNumber, stringifyJson } from "@merchantkit/core";
import { describe, expect, it } from "vitest";
import { jsonChunks, jsonStream } from "./state-stream";

const sample = {
  clock: { now: 1, frozen: false, nextAt: undefined },
  areas: {
    issuing: {
      transactions: Array.from({ length: 1_234 }, (_, i) => ({
        id: new JsonNumber(`19537125853514997${String(i).padStart(2, "0")}`),
        amount: "100.10",
        nested: [[i], { deep: [1, 2] }],
      })),
      empty: [],
      when: new Date(0),
      skip: () => 1,
    },
    payout: { list: [1, undefined, "x"] },
  },
};

describe("jsonChunks", () => {
  it("gives the same text as stringifyJson", () => {
    expect([...jsonChunks(sample)].join("")).toBe(stringifyJson(sample));
  });

  it("slices large arrays instead of writing them whole", () => {
    const chunks = [...jsonChunks(sample)];
    expect(chunks.length).toBeGreaterThan(3);
    expect(Math.max(...chunks.map((c) => c.length))).toBeLessThan(stringifyJson(sample).length / 2);
  });
});

describe("jsonStream", () => {
  it("streams the same bytes", async () => {
    const text = await new Response(jsonStream(sample)).text();
    expect(text).toBe(stringifyJson(sample));
  });
});

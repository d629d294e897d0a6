import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { endpoints, originPath } from "../endpoint-table";
import { buildOpenApiDocument, openApiText } from "./build-openapi";

describe("OpenAPI document", () => {
  const doc = buildOpenApiDocument();

  it("validates as OpenAPI 3.1", async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("lists every path of the endpoint table", () => {
    expect(Object.keys(doc.paths as object).sort()).toEqual(endpoints.map(originPath).sort());
  });

  it("is what docs/openapi.json holds (regenerate with `pnpm openapi`)", () => {
    const committed = readFileSync(
      resolve(import.meta.dirname, "../../../../docs/openapi.json"),
      "utf8",
    );
    expect(committed).toBe(openApiText());
  });
});

import { describe, expect, it } from "bun:test";
import { z } from "zod";
import { configSchema } from "./config.ts";
import { CONFIG_SCHEMA_REVISION, defaultConfig } from "./default-config.ts";

describe("the config defaults and revision", () => {
  it("defaultConfig is what the schema makes of an empty config", () => {
    expect(defaultConfig()).toEqual(configSchema.parse({}));
  });

  it("CONFIG_SCHEMA_REVISION changes with the schema (parsed configs are cached under it)", () => {
    // When this fails, bump CONFIG_SCHEMA_REVISION and pin the new hash together.
    const shape =
      JSON.stringify(z.toJSONSchema(configSchema, { io: "input" })) + JSON.stringify(z.toJSONSchema(configSchema));
    expect({ revision: CONFIG_SCHEMA_REVISION, hash: Bun.hash.xxHash64(shape).toString(16) }).toEqual({
      revision: 8,
      hash: "a78eb92a691b46c3",
    });
  });
});

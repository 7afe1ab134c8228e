import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { configSchema } from "@uwf/protocol";
import { makeTempDirectory } from "../../test/fixtures/agents/fixtures.ts";
import { InvalidConfigError } from "./invalid-config-error.ts";
import { loadConfig, safeLoadConfig } from "./load-config.ts";

let temp: { path: string; remove: () => void };
beforeEach(() => {
  temp = makeTempDirectory("uwf-config-test-");
});
afterEach(() => temp.remove());

describe("loadConfig", () => {
  it("gives the defaults when config.yaml does not exist or is blank: exactly what the schema makes of {}", async () => {
    const defaults = configSchema.parse({});
    expect(await loadConfig(join(temp.path, "no-home-yet"))).toEqual(defaults);
    writeFileSync(join(temp.path, "config.yaml"), "\n  \n");
    expect(await loadConfig(temp.path)).toEqual(defaults);
    writeFileSync(join(temp.path, "config.yaml"), "# nothing set yet\n");
    expect(await loadConfig(temp.path)).toEqual(defaults);
  });

  it("reads config.yaml from the home", async () => {
    writeFileSync(
      join(temp.path, "config.yaml"),
      "defaultAgent: demo\nagents:\n  demo: { builtin: scripted, scenario: s.yaml }\n",
    );
    expect(await loadConfig(temp.path)).toMatchObject({ defaultAgent: "demo" });
  });

  it("throws an error naming the file and line", async () => {
    writeFileSync(join(temp.path, "config.yaml"), "retries: many\n");
    await expect(loadConfig(temp.path)).rejects.toThrow(`${join(temp.path, "config.yaml")}:1:1: retries:`);
  });

  it("has a safe form returning the error", async () => {
    mkdirSync(join(temp.path, "config.yaml"));
    const result = await safeLoadConfig(temp.path);
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(result.error).toBeInstanceOf(InvalidConfigError);
      expect(result.error.message).toContain("cannot read the file");
    }
  });
});

import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { configSchema } from "@uwf/protocol";
import { makeTempDirectory } from "../../test/fixtures/agents/fixtures.ts";
import { InvalidConfigError } from "../errors/invalid-config-error.ts";
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

describe("the parsed-config cache", () => {
  const yaml = "defaultAgent: demo\nagents:\n  demo: { builtin: scripted, scenario: s.yaml }\n";
  const cacheFile = () => join(temp.path, "cache", "config.json");

  it("keeps the parsed config by the file's text, and uses it while the text is the same", async () => {
    writeFileSync(join(temp.path, "config.yaml"), yaml);
    const parsed = await loadConfig(temp.path);
    const entry = JSON.parse(readFileSync(cacheFile(), "utf8"));
    expect(entry.config).toEqual(parsed);
    expect(statSync(cacheFile()).mode & 0o777).toBe(0o600);
    // Proof that the second load reads the cache: plant a different value under the same key.
    writeFileSync(cacheFile(), JSON.stringify({ ...entry, config: { ...entry.config, retries: 7 } }));
    expect((await loadConfig(temp.path)).retries).toBe(7);
  });

  it("parses again when the text changes, the cache is damaged or the schema's revision differs", async () => {
    writeFileSync(join(temp.path, "config.yaml"), yaml);
    await loadConfig(temp.path);
    writeFileSync(join(temp.path, "config.yaml"), `${yaml}retries: 4\n`);
    expect((await loadConfig(temp.path)).retries).toBe(4);
    writeFileSync(cacheFile(), "{ not json");
    expect((await loadConfig(temp.path)).retries).toBe(4);
    const entry = JSON.parse(readFileSync(cacheFile(), "utf8"));
    writeFileSync(cacheFile(), JSON.stringify({ ...entry, revision: entry.revision + 1, config: { retries: 9 } }));
    expect((await loadConfig(temp.path)).retries).toBe(4);
  });

  it("never caches an invalid config, and works when the cache cannot be written", async () => {
    writeFileSync(join(temp.path, "config.yaml"), "retries: many\n");
    await expect(loadConfig(temp.path)).rejects.toThrow(InvalidConfigError);
    expect(existsSync(cacheFile())).toBe(false);
    writeFileSync(join(temp.path, "cache"), "a file where the directory would go");
    writeFileSync(join(temp.path, "config.yaml"), yaml);
    expect(await loadConfig(temp.path)).toMatchObject({ defaultAgent: "demo" });
  });
});

import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { readdirSync, readFileSync, watch, writeFileSync } from "node:fs";
import { join } from "node:path";
import { InvalidConfigError, loadConfig } from "@uwf/agent-kit";
import { configSchema } from "@uwf/protocol";
import { makeTempDirectory } from "../../../../agent-kit/test/fixtures/agents/fixtures.ts";
import {
  getConfigValue,
  listConfigValues,
  setConfigValue,
  setConfigValues,
  unsetConfigValue,
} from "./config-values.ts";

let temp: { path: string; remove: () => void };
let configFile: string;
beforeEach(() => {
  temp = makeTempDirectory("uwf-config-test-");
  configFile = join(temp.path, "config.yaml");
});
afterEach(() => temp.remove());

describe("getConfigValue", () => {
  const config = configSchema.parse({ agents: { claude: { command: "claude" } }, defaultAgent: "claude" });

  it("reads a dotted key", () => {
    expect(getConfigValue(config, "defaultAgent")).toBe("claude");
    expect(getConfigValue(config, "agents.claude.args")).toEqual([]);
    expect(getConfigValue(config, "retries")).toBe(2);
  });

  it("gives undefined for a key that is not set", () => {
    expect(getConfigValue(config, "defaultModel")).toBeUndefined();
    expect(getConfigValue(config, "agents.codex.command")).toBeUndefined();
    expect(getConfigValue(config, "agents.constructor")).toBeUndefined();
  });
});

describe("listConfigValues", () => {
  it("lists every set value as a dotted key, defaults included", () => {
    const config = configSchema.parse({ agents: { claude: { command: "claude", args: ["-p"] } } });
    expect(listConfigValues(config)).toEqual([
      { key: "agents.claude.command", value: "claude" },
      { key: "agents.claude.args", value: ["-p"] },
      { key: "retries", value: 2 },
      { key: "timeout", value: 1800 },
    ]);
  });
});

describe("setConfigValue", () => {
  it("creates config.yaml and reads the value as YAML", async () => {
    await setConfigValue(temp.path, "retries", "3");
    await setConfigValue(temp.path, "agents.claude.command", "claude");
    await setConfigValue(temp.path, "agents.claude.args", "[-p, --output-format, text]");
    const config = await setConfigValue(temp.path, "defaultAgent", "claude");
    expect(config.retries).toBe(3);
    expect(config.agents.claude).toEqual({ command: "claude", args: ["-p", "--output-format", "text"] });
    expect(await loadConfig(temp.path)).toEqual(config);
  });

  it("keeps the file's comments and other keys", async () => {
    writeFileSync(configFile, "# my agents\ndefaultAgent: a\nagents:\n  a: { command: a } # the a agent\n");
    await setConfigValue(temp.path, "timeout", "60");
    expect(readFileSync(configFile, "utf8")).toBe(
      "# my agents\ndefaultAgent: a\nagents:\n  a: { command: a } # the a agent\ntimeout: 60\n",
    );
  });

  it("keeps text that is not valid YAML as a string", async () => {
    const config = await setConfigValue(temp.path, "agents.x.command", "my agent: [unclosed");
    expect(config.agents.x).toEqual({ command: "my agent: [unclosed", args: [] });
  });

  it("refuses a value that makes the config invalid and writes nothing", async () => {
    writeFileSync(configFile, "retries: 1\n");
    const attempt = setConfigValue(temp.path, "retries", "many");
    await expect(attempt).rejects.toThrow(InvalidConfigError);
    await expect(setConfigValue(temp.path, "retries", "many")).rejects.toThrow(
      `cannot set "retries": ${configFile} would become invalid:\n  ${configFile}:1:1: retries: expected number, received string`,
    );
    await expect(setConfigValue(temp.path, "nonsense", "1")).rejects.toThrow("nonsense: unknown key");
    expect(readFileSync(configFile, "utf8")).toBe("retries: 1\n");
    expect(readdirSync(temp.path)).toEqual(["config.yaml"]);
  });

  it("refuses an empty key", async () => {
    await expect(setConfigValue(temp.path, "agents..command", "x")).rejects.toThrow("expected a dotted key");
  });
});

describe("setConfigValues", () => {
  it("sets the keys in order, keeping comments, and writes config.yaml once", async () => {
    writeFileSync(configFile, "# mine\nretries: 1\n");
    const renamed: string[] = [];
    const watcher = watch(temp.path, (event, name) => {
      if (event === "rename" && name === "config.yaml") renamed.push(name);
    });
    try {
      const config = await setConfigValues(temp.path, [
        { key: "retries", valueText: "3" },
        { key: "agents.claude", valueText: JSON.stringify({ command: "claude" }) },
        { key: "agents.claude.args", valueText: "[-p]" },
        { key: "defaultAgent", valueText: "claude" },
      ]);
      expect(config.retries).toBe(3);
      expect(config.agents.claude).toEqual({ command: "claude", args: ["-p"] });
      expect(await loadConfig(temp.path)).toEqual(config);
      expect(readFileSync(configFile, "utf8")).toStartWith("# mine\n");
      // The one rename of the temp file over config.yaml is reported once the watcher has caught up.
      const deadline = Date.now() + 2000;
      while (renamed.length === 0 && Date.now() < deadline) await Bun.sleep(10);
      await Bun.sleep(50);
      expect(renamed).toEqual(["config.yaml"]);
    } finally {
      watcher.close();
    }
  });

  it("writes nothing when a later key would make the config invalid", async () => {
    writeFileSync(configFile, "retries: 1\n");
    const attempt = setConfigValues(temp.path, [
      { key: "retries", valueText: "3" },
      { key: "timeout", valueText: "soon" },
    ]);
    await expect(attempt).rejects.toThrow('cannot set "timeout"');
    expect(readFileSync(configFile, "utf8")).toBe("retries: 1\n");
    expect(readdirSync(temp.path)).toEqual(["config.yaml"]);
  });
});

describe("unsetConfigValue", () => {
  it("removes a key so its default applies again", async () => {
    writeFileSync(configFile, "retries: 5\ntimeout: 10\n");
    const config = await unsetConfigValue(temp.path, "retries");
    expect(config.retries).toBe(2);
    expect(readFileSync(configFile, "utf8")).toBe("timeout: 10\n");
  });
});

import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { InvalidConfigError, loadConfig } from "@uwf/agent-kit";
import { makeTempDirectory } from "../../../../agent-kit/test/fixtures/agents/fixtures.ts";
import { saveConfig } from "./save-config.ts";

let temp: { path: string; remove: () => void };
beforeEach(() => {
  temp = makeTempDirectory("uwf-config-test-");
});
afterEach(() => temp.remove());

describe("saveConfig", () => {
  it("writes exactly the given settings, creating the home", async () => {
    const home = join(temp.path, ".uwf");
    await saveConfig(home, { defaultAgent: "demo", agents: { demo: { builtin: "scripted", scenario: "demo.yaml" } } });
    expect(readFileSync(join(home, "config.yaml"), "utf8")).toBe(
      "defaultAgent: demo\nagents:\n  demo:\n    builtin: scripted\n    scenario: demo.yaml\n",
    );
    expect(await loadConfig(home)).toMatchObject({ defaultAgent: "demo", retries: 2 });
    // No temporary file left behind (`cache/` holds what loadConfig parsed).
    expect(readdirSync(home).filter((name) => name !== "cache")).toEqual(["config.yaml"]);
  });

  it("refuses invalid settings without writing", async () => {
    await expect(saveConfig(temp.path, { retries: -1 })).rejects.toThrow(InvalidConfigError);
    expect(existsSync(join(temp.path, "config.yaml"))).toBe(false);
  });
});

import { describe, expect, it } from "bun:test";
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";

describe("loadYaml", () => {
  it("leaves the YAML library unloaded while a step's replies, prompts and scenario take the fast paths", () => {
    const source = (path: string) => JSON.stringify(join(import.meta.dir, "..", path));
    const workflowSource = (path: string) =>
      JSON.stringify(join(dirname(Bun.resolveSync("@uwf/workflow", import.meta.dir)), path));
    const script = [
      `const { extractFrontmatter } = await import(${source("extract/extract-frontmatter.ts")});`,
      `const { formatFrontmatter } = await import(${workflowSource("yaml/format-frontmatter.ts")});`,
      `const { safeLoadScenario } = await import(${source("launch/load-scenario.ts")});`,
      "const loaded = () => Object.keys(require.cache).some((key) => key.includes('/node_modules/yaml/'));",
      "const before = loaded();",
      'extractFrontmatter("---\\na: 1\\n---\\n", { properties: { a: { type: "integer" } } });',
      'formatFrontmatter({ summary: "done", n: 2 }, "Body.");',
      `await safeLoadScenario(${source("../test/fixtures/agents/no-such-scenario.json")});`,
      "const fastPaths = loaded();",
      'extractFrontmatter("---\\na: [1]\\n---\\n", { properties: { a: { type: "array" } } });',
      "console.log(JSON.stringify({ before, fastPaths, list: loaded() }));",
    ].join("\n");
    const run = spawnSync(process.execPath, ["-e", script], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout)).toEqual({ before: false, fastPaths: false, list: true });
  });
});

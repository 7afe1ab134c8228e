import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTempDirectory } from "../../test/fixtures/agents/fixtures.ts";
import { extractFrontmatter } from "../extract/extract-frontmatter.ts";
import { type RunScriptedAgentOptions, runScriptedAgent } from "./scripted-agent.ts";

let temp: { path: string; remove: () => void };
beforeEach(() => {
  temp = makeTempDirectory();
  writeFileSync(
    join(temp.path, "scenario.yaml"),
    [
      "steps:",
      "  - role: writer",
      "    output: { summary: first draft }",
      "    body: |",
      "      # Draft",
      "      Text.",
      "  - role: reviewer",
      "    output: { approved: false, comments: too long }",
      "  - role: writer",
      "    reply: not frontmatter at all",
      "  - role: reviewer",
      '    reply: ["---\\napproved: maybe\\n---\\n", "---\\napproved: true\\n---\\n"]',
    ].join("\n"),
  );
});
afterEach(() => temp.remove());

function play(stepIndex: number, routedRole: string, extra: Partial<RunScriptedAgentOptions> = {}) {
  return runScriptedAgent({
    spec: { builtin: "scripted", scenario: "scenario.yaml" },
    baseDir: temp.path,
    stepIndex,
    routedRole,
    ...extra,
  });
}

describe("runScriptedAgent", () => {
  it("replies with the entry at the chain's length: its output as frontmatter and its body", async () => {
    const result = await play(0, "writer");
    expect(result).toMatchObject({ exitCode: 0, error: null, command: null, timedOut: false, interrupted: false });
    expect(result.reply).toBe("---\nsummary: first draft\n---\n\n# Draft\nText.\n");
    expect(extractFrontmatter(result.reply, { properties: { summary: { type: "string" } } })).toEqual({
      fields: { summary: "first draft" },
      body: "# Draft\nText.",
    });
    expect((await play(1, "reviewer")).reply).toBe("---\napproved: false\ncomments: too long\n---\n");
  });

  it("fails naming both roles when the moderator chose another role", async () => {
    const result = await play(2, "reviewer");
    expect(result.exitCode).toBeNull();
    expect(result.error).toBe(
      `scenario step 3 expects role writer but the moderator chose reviewer (${join(temp.path, "scenario.yaml")})`,
    );
  });

  it("fails clearly past the end of the scenario", async () => {
    expect((await play(4, "writer")).error).toBe(
      `scenario ${join(temp.path, "scenario.yaml")} has 4 steps, so it has nothing for step 5 (role writer)`,
    );
  });

  it("replies a raw reply as given, one per attempt when it is a list", async () => {
    expect((await play(2, "writer")).reply).toBe("not frontmatter at all");
    expect((await play(3, "reviewer", { attempt: 0 })).reply).toBe("---\napproved: maybe\n---\n");
    expect((await play(3, "reviewer", { attempt: 1 })).reply).toBe("---\napproved: true\n---\n");
    expect((await play(3, "reviewer", { attempt: 5 })).reply).toBe("---\napproved: true\n---\n");
  });

  it("reads an absolute scenario path as is", async () => {
    const spec = { builtin: "scripted" as const, scenario: join(temp.path, "scenario.yaml") };
    expect((await play(0, "writer", { spec, baseDir: "/nowhere" })).error).toBeNull();
  });

  it("fails clearly when the scenario is missing or malformed", async () => {
    const missing = await play(0, "writer", { spec: { builtin: "scripted", scenario: "missing.yaml" } });
    expect(missing.error).toBe(`cannot read scenario ${join(temp.path, "missing.yaml")}: no such file`);
    writeFileSync(join(temp.path, "bad.yaml"), "steps:\n  - output: {}\n");
    const bad = await play(0, "writer", { spec: { builtin: "scripted", scenario: "bad.yaml" } });
    expect(bad.error).toBe(`scenario ${join(temp.path, "bad.yaml")}, steps[0] needs a "role" name`);
    writeFileSync(join(temp.path, "flat.yaml"), "- role: writer\n");
    const flat = await play(0, "writer", { spec: { builtin: "scripted", scenario: "flat.yaml" } });
    expect(flat.error).toBe(`scenario ${join(temp.path, "flat.yaml")} needs a "steps" list`);
  });

  it("refuses a scenario over the YAML limits instead of throwing", async () => {
    const lines = ['a: &a ["x", "x", "x", "x", "x", "x", "x", "x", "x", "x"]'];
    for (const [index, name] of ["b", "c", "d", "e", "f"].entries()) {
      lines.push(`${name}: &${name} [${Array(10).fill(`*${"abcdef"[index]}`).join(", ")}]`);
    }
    writeFileSync(join(temp.path, "bomb.yaml"), `${lines.join("\n")}\nsteps: []\n`);
    const bomb = await play(0, "writer", { spec: { builtin: "scripted", scenario: "bomb.yaml" } });
    expect(bomb.error).toBe(
      `scenario ${join(temp.path, "bomb.yaml")} is refused: aliases expand too much (more than 100 alias expansions)`,
    );
  });

  it("reads a .json scenario as JSON, and reports invalid JSON", async () => {
    const steps = [{ role: "writer", output: { summary: "from JSON" }, body: "Body." }];
    writeFileSync(join(temp.path, "scenario.json"), JSON.stringify({ steps }));
    const result = await play(0, "writer", { spec: { builtin: "scripted", scenario: "scenario.json" } });
    expect(result.error).toBeNull();
    expect(extractFrontmatter(result.reply, { properties: { summary: { type: "string" } } })).toMatchObject({
      fields: { summary: "from JSON" },
      body: "Body.",
    });
    writeFileSync(join(temp.path, "broken.json"), "{ steps: [");
    const broken = await play(0, "writer", { spec: { builtin: "scripted", scenario: "broken.json" } });
    expect(broken.error).toStartWith(`scenario ${join(temp.path, "broken.json")} is not valid JSON:`);
  });

  it("does not play when the signal is already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await play(0, "writer", { signal: controller.signal })).toMatchObject({ interrupted: true, reply: "" });
  });

  it("plays a branch's steps from its own entries (or the `*` ones), apart from the main sequence", async () => {
    writeFileSync(
      join(temp.path, "branches.yaml"),
      [
        "steps:",
        "  - role: planner",
        "    output: { plan: p }",
        "  - { role: reviewer, branch: security, output: { verdict: secure } }",
        "  - { role: reviewer, branch: '*', output: { verdict: fine } }",
        "  - { role: reviewer, branch: security, output: { verdict: answered } }",
        "  - role: synthesizer",
        "    output: { done: true }",
      ].join("\n"),
    );
    const spec = { builtin: "scripted" as const, scenario: "branches.yaml" };
    const replyOf = async (stepIndex: number, role: string, branch?: { key: string; index: number }) => {
      const result = await runScriptedAgent({
        spec,
        baseDir: temp.path,
        stepIndex,
        routedRole: role,
        ...(branch === undefined ? {} : { branch }),
      });
      return result.reply;
    };
    expect(await replyOf(0, "planner")).toBe("---\nplan: p\n---\n");
    // The join is the parent's second step: the main sequence skips the branch entries.
    expect(await replyOf(1, "synthesizer")).toBe("---\ndone: true\n---\n");
    expect(await replyOf(1, "reviewer", { key: "security", index: 0 })).toBe("---\nverdict: secure\n---\n");
    expect(await replyOf(2, "reviewer", { key: "security", index: 1 })).toBe("---\nverdict: answered\n---\n");
    expect(await replyOf(1, "reviewer", { key: "speed", index: 0 })).toBe("---\nverdict: fine\n---\n");
    const missing = await runScriptedAgent({
      spec,
      baseDir: temp.path,
      stepIndex: 2,
      routedRole: "reviewer",
      branch: { key: "speed", index: 1 },
    });
    expect(missing.error).toContain("for branch speed");
  });
});

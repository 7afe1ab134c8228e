import { describe, expect, it } from "bun:test";
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { errorResultSchema, stepResultSchema, workflowNewResultSchema } from "@uwf/protocol";
import { runProcess, UWF_COMMAND } from "../../helpers/run-process.ts";
import { FIXTURES, LINEAR, SCRIPTED, useTempHome } from "../../helpers/temp-home.ts";

const REPOSITORY = resolve(import.meta.dir, "../../../../..");

const temp = useTempHome();

/** The lines of the README's "A 60-second tour" code block, as a newcomer pastes them. */
function tourLines(): string[] {
  const readme = readFileSync(join(REPOSITORY, "README.md"), "utf8");
  const block = /## A 60-second tour\n\n```sh\n([\s\S]*?)\n```/.exec(readme)?.[1];
  if (block === undefined) throw new Error("README.md has no tour code block");
  return block.split("\n");
}

/** What one pasted line did: its exit status and what it wrote. */
interface PastedLine {
  line: string;
  exitCode: number;
  stdout: string;
  stderr: string;
}

/**
 * Pastes the lines into one bash, one after another, in a copy of the repository's README and
 * examples, with `uwf` on PATH as the CLI from sources. Each line's exit status and output are kept
 * apart; `uwf ui`, which serves until Ctrl-C, is the one line skipped.
 */
async function pasteIntoBash(lines: readonly string[]): Promise<{ pasted: PastedLine[]; skipped: string[] }> {
  const bin = join(temp.work, "..", "bin");
  mkdirSync(bin, { recursive: true });
  const wrapper = join(bin, "uwf");
  writeFileSync(wrapper, `#!/bin/sh\nexec ${UWF_COMMAND.map((part) => `'${part}'`).join(" ")} "$@"\n`);
  chmodSync(wrapper, 0o755);
  cpSync(join(REPOSITORY, "README.md"), join(temp.work, "README.md"));
  cpSync(join(REPOSITORY, "examples"), join(temp.work, "examples"), { recursive: true });
  const out = join(temp.work, "..", "pasted");
  mkdirSync(out, { recursive: true });
  const script: string[] = [];
  const skipped: string[] = [];
  const kept: string[] = [];
  for (const line of lines) {
    if (line.trim() === "") continue;
    if (/^uwf ui\b/.test(line)) {
      skipped.push(line);
      continue;
    }
    const index = kept.length;
    kept.push(line);
    // A group, not a subshell: what a line sets ($T, $S) is there for the next, as when pasted.
    script.push(`{\n${line}\n} > ${out}/${index}.out 2> ${out}/${index}.err`, `echo $? > ${out}/${index}.code`);
  }
  const run = await runProcess(["bash", "-c", script.join("\n")], {
    cwd: temp.work,
    env: {
      PATH: `${bin}:${process.env.PATH}`,
      HOME: join(temp.work, ".."),
      UWF_HOME: temp.home,
      NO_COLOR: "1",
    },
  });
  expect(run.stderr).toBe("");
  const pasted = kept.map((line, index) => {
    const read = (suffix: string) => readFileSync(join(out, `${index}.${suffix}`), "utf8");
    return { line, exitCode: Number(read("code")), stdout: read("out"), stderr: read("err") };
  });
  return { pasted, skipped };
}

describe("a newcomer's first hour", () => {
  it("runs the README tour pasted line by line into bash: every line exits as the README says", async () => {
    const { pasted, skipped } = await pasteIntoBash(tourLines());
    expect(skipped.map((line) => line.split(/\s+#/)[0]?.trim())).toEqual(["uwf ui"]);
    // The README promises no failure: every line exits 0 (the eval's gate holds, the loop ends at 10).
    expect(
      pasted.filter((line) => line.exitCode !== 0).map(({ line, exitCode, stderr }) => ({ line, exitCode, stderr })),
    ).toEqual([]);
    const find = (start: string) => {
      const found = pasted.find((line) => line.line.startsWith(start));
      if (found === undefined) throw new Error(`the tour has no line starting ${start}`);
      return found;
    };
    // The stopped line says 10 = ended, and so it is.
    expect(find('echo "stopped').stdout).toBe("stopped: 10\n");
    // -q: no step lines, only where the thread stands after each step.
    const loop = find("code=0; while").stdout.trimEnd().split("\n");
    expect(loop.every((line) => line.startsWith("thread "))).toBe(true);
    expect(loop.at(-1)).toContain("ended");
    // run and step --all end with one totals line on stderr.
    expect(find('uwf step "$F" --all').stderr).toMatch(/^total: 6 steps · 0 tokens · \$0\.0000 · \S+$/m);
    expect(find("uwf run mine.yaml").stderr).toMatch(/^total: 5 steps · 0 tokens · \$0\.0000 · \S+$/m);
    expect(find("uwf run mine.yaml").stdout).toContain("ended");
    // tree explains its mark; the eval's gate is shown and holds.
    expect(find('uwf tree "$T"').stderr).toMatch(/^\* marks \w{26}, the thread asked about$/m);
    expect(find("uwf eval --forks-of").stdout).toContain("gate held");
    expect(find("uwf workflow new mine").stdout).toContain("uwf run mine.yaml");
  }, 120_000);

  it("writes a starter workflow that validates and runs to its end offline, and never overwrites", async () => {
    const made = await temp.uwf(["workflow", "new", "ship", "--json"]);
    expect(made.exitCode).toBe(0);
    const result = workflowNewResultSchema.parse(made.json());
    expect(result).toMatchObject({
      name: "ship",
      file: join(temp.work, "ship.yaml"),
      scenario: join(temp.work, "ship.scenario.yaml"),
    });
    const workflow = readFileSync(result.file, "utf8");
    // A model role, a shell check, a person's approval and a fan-out.
    for (const part of ["frontmatter:", "builtin: shell", "answer: approval", "parallel:", "join:"]) {
      expect(workflow).toContain(part);
    }
    expect((await temp.uwf(["workflow", "validate", "ship.yaml"])).exitCode).toBe(0);
    const ran = await temp.uwf(["run", "ship.yaml", "-p", "Go", "--agent", "scripted:ship.scenario.yaml", "--json"]);
    expect(ran.exitCode).toBe(0);
    const stepped = stepResultSchema.parse(ran.json());
    expect(stepped.status).toBe("ended");
    expect(stepped.steps.map((step) => step.role)).toEqual(["planner", "checks", "approver", "approver", "finisher"]);
    // --json: no totals line (nor any note) on stderr.
    expect(ran.stderr).toBe("");

    // Both files exist now: refused, exit 2, nothing rewritten.
    writeFileSync(result.scenario, "mine\n");
    const again = await temp.uwf(["workflow", "new", "ship"]);
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toContain("ship.yaml and ship.scenario.yaml already exist");
    expect(readFileSync(result.scenario, "utf8")).toBe("mine\n");
    const bad = await temp.uwf(["workflow", "new", "../x", "--json"]);
    expect(bad.exitCode).toBe(2);
    expect(errorResultSchema.parse(JSON.parse(bad.stderr)).error.code).toBe("usage");
    expect(existsSync(join(temp.work, "..", "x.yaml"))).toBe(false);
  }, 60_000);

  it("suggests the field meant for a misspelt workflow key and a misspelt answer field", async () => {
    const misspelt = join(temp.work, "linear.yaml");
    writeFileSync(
      misspelt,
      readFileSync(LINEAR, "utf8")
        .replace("description: Plan, then do", "descripton: Plan, then do\nbudget: { max_step: 5 }")
        .replace("goal: Plan the work.", "goall: Plan the work.")
        .replace('{ role: planner, prompt: "Plan the task." }', '{ role: planner, promt: "Plan the task." }'),
    );
    const validated = await temp.uwf(["workflow", "validate", misspelt]);
    expect(validated.exitCode).toBe(1);
    expect(validated.stdout).toContain('descripton: unknown field "descripton" (did you mean "description"?)');
    expect(validated.stdout).toContain('roles.planner.goall: unknown field "goall" (did you mean "goal"?)');
    expect(validated.stdout).toContain('budget.max_step: unknown field "max_step" (did you mean "max_steps"?)');
    expect(validated.stdout).toContain('graph.$START[0].promt: unknown field "promt" (did you mean "prompt"?)');

    const approvalAgent = `scripted:${join(FIXTURES, "workflows/approval.scenario.yaml")}`;
    const asked = await temp.uwf([
      "run",
      join(FIXTURES, "workflows/approval.yaml"),
      "-p",
      "Ship",
      "--agent",
      approvalAgent,
      "--json",
    ]);
    expect(asked.exitCode).toBe(20);
    const thread = stepResultSchema.parse(asked.json()).thread;
    const refused = await temp.uwf([
      "resume",
      thread,
      "--answer",
      '{"aproved": true}',
      "--agent",
      approvalAgent,
      "--json",
    ]);
    expect(refused.exitCode).toBe(2);
    const error = errorResultSchema.parse(JSON.parse(refused.stderr)).error;
    expect(error.code).toBe("invalid-answer");
    expect(error.message).toContain('unknown field "aproved" (did you mean "approved"?)');
    expect((await temp.showThread(thread)).status).toBe("suspended");
  }, 60_000);

  it("keeps -q quiet: no step lines, no totals, only where the thread stands", async () => {
    const thread = await temp.startThread();
    const quiet = await temp.uwf(["step", thread, "--all", "-q", "--agent", SCRIPTED]);
    expect(quiet.exitCode).toBe(0);
    expect(quiet.stdout).toBe(`thread ${thread} ended · it reached $END (doer), nothing is left to step\n`);
    expect(quiet.stderr).toBe("");
    const other = await temp.startThread();
    const loud = await temp.uwf(["step", other, "--all", "--agent", SCRIPTED]);
    expect(loud.stdout.split("\n").filter((line) => line.startsWith("#")).length).toBe(2);
    expect(loud.stderr).toMatch(/^total: 2 steps · 0 tokens · \$0\.0000 · \S+\n$/);
    // One step is no run: no totals.
    const single = await temp.uwf(["step", await temp.startThread(), "--agent", SCRIPTED]);
    expect(single.stderr).toBe("");
    // --addresses prints what fork takes, one a line.
    const addresses = (await temp.uwf(["log", thread, "--addresses"])).stdout.trimEnd().split("\n");
    expect(addresses).toEqual(
      ((await temp.uwf(["log", thread, "--json"])).json() as { steps: Array<{ address: string }> }).steps.map(
        (step) => step.address,
      ),
    );
    expect((await temp.uwf(["fork", addresses[0] as string])).exitCode).toBe(0);
  }, 60_000);
});

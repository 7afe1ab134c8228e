import { describe, expect, it } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { logResultSchema, stepResultSchema, threadStartNodeSchema, threadStepNodeSchema } from "@uwf/protocol";
import { EXAMPLES, useTempHome } from "../../helpers/temp-home.ts";

const temp = useTempHome();

/** A node straight from the store's files, as `cat` would read it. */
function readNode(address: string): unknown {
  return JSON.parse(readFileSync(join(temp.home, "objects", address.slice(0, 2), `${address.slice(2)}.json`), "utf8"));
}

/** `uwf run` of an example with its scenario; the thread must end, and each step's edge prompt is returned in order. */
async function runToEnd(example: string, extra: string[] = []): Promise<{ thread: string; edgePrompts: string[] }> {
  const scenario = `scripted:${join(EXAMPLES, `${example}.scenario.yaml`)}`;
  const ran = await temp.uwf([
    "run",
    join(EXAMPLES, `${example}.yaml`),
    "-p",
    "Go.",
    "--agent",
    scenario,
    ...extra,
    "--json",
  ]);
  expect(ran.stderr).not.toContain("error");
  expect(ran.exitCode).toBe(0);
  const result = stepResultSchema.parse(ran.json());
  expect(result.status).toBe("ended");
  const log = logResultSchema.parse((await temp.uwf(["log", result.thread, "--json"])).json());
  const edgePrompts = log.steps.map((step) => threadStepNodeSchema.parse(readNode(step.address)).edgePrompt);
  return { thread: result.thread, edgePrompts };
}

describe("workflows with per-status outputs", () => {
  it("runs the brainstorm loop to its end, each edge prompt reading its status's fields", async () => {
    const { edgePrompts } = await runToEnd("brainstorm");
    expect(edgePrompts).toHaveLength(4);
    expect(edgePrompts[0]).toBe("Brainstorm ideas for: Go.");
    expect(edgePrompts[1]).toContain("- Dark mode: Users asked for it in the survey.\n- Keyboard shortcuts:");
    expect(edgePrompts[2]).toBe("Another round. Feedback: Think about onboarding too.\nBuild on: Keyboard shortcuts");
    expect(edgePrompts[3]).toContain("- Shortcut tour: A first-run tour that teaches three shortcuts.");
  });

  it("runs the debate to its end through a status map and a condition that tests $status", async () => {
    const { edgePrompts } = await runToEnd("debate");
    expect(edgePrompts).toHaveLength(5);
    expect(edgePrompts[1]).toBe("The proponent argues: Remote work saves two hours of commuting a day.");
    expect(edgePrompts[2]).toBe(
      "The opponent argues: Teams lose the chance conversations that spark ideas.\n(answering: commuting time)",
    );
    expect(edgePrompts[4]).toBe(
      "The opponent closes: Chat is no substitute for a shared room. (concedes: false). Decide.",
    );
  });
});

describe("start inputs", () => {
  const prInputs = ["--input", "repo=acme/shop", "--input", "prNumber=42"];

  it("reach $START and later edges by name and as inputs.KEY, and are kept in the start node", async () => {
    const { thread, edgePrompts } = await runToEnd("review-pr", prInputs);
    expect(edgePrompts).toEqual([
      "Fetch PR #42 in repo acme/shop, checked out at ..",
      "Review PR #42 in acme/shop: Add a dry-run flag (2 files).",
      "Address the review of PR #42 in .:\n- src/cli.ts: Document the flag in --help.",
      "Review PR #42 again; the author says: Documented --dry-run in the help text.",
    ]);
    const shown = (await temp.uwf(["show", thread, "--json"])).json<{ start: string; inputs: unknown }>();
    // prNumber=42 is read as YAML: a number, which the schema's integer accepts; repoPath got its default.
    expect(shown.inputs).toEqual({ repo: "acme/shop", prNumber: 42, repoPath: "." });
    expect(threadStartNodeSchema.parse(readNode(shown.start)).inputs).toEqual(shown.inputs as Record<string, unknown>);
    expect((await temp.uwf(["show", thread])).stdout).toContain(
      'inputs      prNumber=42 repo="acme/shop" repoPath="."',
    );
    expect((await temp.uwf(["read", thread])).stdout).toContain("Inputs:\n\n```yaml\nprNumber: 42\nrepo: acme/shop\n");
    const prompt = (await temp.uwf(["show", thread, "--prompt"])).stdout;
    expect(prompt).toContain("The thread was started with these inputs:");

    // A fork shares the start node, and with it the inputs.
    const log = logResultSchema.parse((await temp.uwf(["log", thread, "--json"])).json());
    const fork = await temp.uwf(["fork", log.steps[1]?.address ?? "", "--json"]);
    expect(fork.exitCode).toBe(0);
    const forked = fork.json<{ thread: string }>().thread;
    expect((await temp.uwf(["show", forked, "--json"])).json<{ inputs: unknown }>().inputs).toEqual(shown.inputs);
  });

  it("are read from a YAML file or stdin, with --input winning over the file", async () => {
    const file = join(temp.work, "inputs.yaml");
    writeFileSync(file, "repo: acme/shop\nprNumber: 7\n");
    const started = await temp.uwf([
      "start",
      join(EXAMPLES, "review-pr.yaml"),
      "-p",
      "x",
      "--inputs",
      file,
      "--input",
      "prNumber=8",
      "--json",
    ]);
    expect(started.exitCode).toBe(0);
    const thread = started.json<{ thread: string }>().thread;
    expect((await temp.uwf(["show", thread, "--json"])).json<{ inputs: unknown }>().inputs).toEqual({
      repo: "acme/shop",
      prNumber: 8,
      repoPath: ".",
    });
    const fromStdin = await temp.uwf(
      ["start", join(EXAMPLES, "review-pr.yaml"), "-p", "x", "--inputs", "-", "--json"],
      { stdin: '{"repo": "a/b", "prNumber": 3, "repoPath": "/src"}' },
    );
    expect(fromStdin.exitCode).toBe(0);
    const other = fromStdin.json<{ thread: string }>().thread;
    expect((await temp.uwf(["show", other, "--json"])).json<{ inputs: unknown }>().inputs).toEqual({
      repo: "a/b",
      prNumber: 3,
      repoPath: "/src",
    });
  });

  it("that do not fit the workflow's schema exit 2 naming the input, and start no thread", async () => {
    const workflow = join(EXAMPLES, "review-pr.yaml");
    const cases: Array<[string[], string]> = [
      [
        ["--input", "repo=acme/shop", "--input", "prNumber=abc"],
        'input "prNumber": expected integer, got string "abc"',
      ],
      [["--input", "prNumber=1"], 'missing required input "repo"'],
      [["--input", "no-equals-sign"], '--input "no-equals-sign": expected KEY=VALUE'],
      [["--inputs", join(temp.work, "missing.yaml")], "missing.yaml: no such file"],
      [["--input", "repo=[unclosed"], "--input repo: not valid YAML"],
    ];
    for (const [flags, message] of cases) {
      const started = await temp.uwf(["start", workflow, "-p", "x", ...flags]);
      expect(started.exitCode).toBe(2);
      expect(started.stderr).toContain(message);
      expect(started.stderr.trim().split("\n")).toHaveLength(1);
    }
    const listed = await temp.uwf(["list", "--json"]);
    expect(listed.json<{ threads: unknown[] }>().threads).toEqual([]);
    expect(existsSync(join(temp.home, "objects"))).toBe(true);
  });
});

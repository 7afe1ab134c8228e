import { describe, expect, it } from "bun:test";
import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  agentRunNodeSchema,
  readResultSchema,
  shownThreadSchema,
  startResultSchema,
  stepResultSchema,
} from "@uwf/protocol";
import { writeWorkflow } from "../../../../../test/kit/workflow/write-workflow.ts";
import { errorOf } from "../../helpers/error-of.ts";
import { fixtureAgent, fixtureAgentsConfig, LINEAR, useTempHome } from "../../helpers/temp-home.ts";

/** Error messages are cut to 2,000 characters, plus the note of how much was cut. */
const LONGEST_ERROR_LINE = 2100;

const agent = fixtureAgent;

const temp = useTempHome({
  setUp: (home) => home.writeConfig([...fixtureAgentsConfig(["alias-bomb", "long-body", "plan-then-do"])].join("\n")),
});

/** A workflow file in the scratch directory: one role, `extra` lines appended at the top level. */
function oneRoleWorkflow(name: string, options: { prompt?: string; extra?: string[] } = {}): string {
  const prompt = JSON.stringify(options.prompt ?? "Go.");
  return writeWorkflow(temp.work, name, [
    "roles:",
    "  w:",
    "    goal: Work.",
    "    frontmatter: { type: object, properties: { done: { type: boolean } } }",
    "graph:",
    `  $START: [{ role: w, prompt: ${prompt} }]`,
    "  w: [{ role: $END }]",
    ...(options.extra ?? []),
  ]);
}

/** Every file under the store's object folder: what a failed command must not have written. */
function objectFiles(): string[] {
  const root = join(temp.home, "objects");
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);
}

/**
 * A hang guard, not a measurement, for the runaway inputs below: each is refused after a moment's
 * work, where honouring it (a gigabyte of includes, thirty million loop iterations) would not be.
 * What shows the limit held is the error naming it.
 */
const HANG_GUARD_MS = 30_000;

/** Nested flow lists, `levels` deep. */
function nested(levels: number): string {
  return `${"[".repeat(levels)}${"]".repeat(levels)}`;
}

describe("limits on workflows", () => {
  it(
    "refuses a small workflow that includes a 1 MiB file a thousand times, with one short problem",
    async () => {
      writeFileSync(join(temp.work, "big.md"), "x".repeat(1024 * 1024));
      const file = oneRoleWorkflow("includes", {
        extra: Array.from({ length: 1000 }, (_, index) => `x-${index}: !include big.md`),
      });
      const validated = await temp.uwf(["workflow", "validate", file]);
      expect(validated.exitCode).toBe(1);
      const output = validated.stdout + validated.stderr;
      expect(output).toContain(`${file}:16:6: error: x-7: !include big.md: the workflow with its includes is over`);
      expect(output).toContain("(8 MiB)");
      expect(output.length).toBeLessThan(1000);

      const started2 = await temp.uwf(["start", file, "-p", "go", "--json"]);
      expect(started2.exitCode).toBe(1);
      expect(errorOf(started2.stderr).code).toBe("invalid-workflow");
      expect(await temp.threadCount()).toBe(0);
    },
    HANG_GUARD_MS,
  );

  it("refuses more than 200 includes", async () => {
    writeFileSync(join(temp.work, "goal.md"), "Work.\n");
    const file = oneRoleWorkflow("many", {
      extra: Array.from({ length: 201 }, (_, index) => `x-${index}: !include goal.md`),
    });
    const result = await temp.uwf(["workflow", "validate", file]);
    expect(result.exitCode).toBe(1);
    expect(result.stdout + result.stderr).toContain(
      "x-200: !include goal.md: a workflow may have at most 200 includes",
    );
  });

  it("refuses a deeply nested workflow with a short error naming the line", async () => {
    const file = oneRoleWorkflow("deep", { extra: [`x-deep: ${nested(10_000)}`] });
    const result = await temp.uwf(["workflow", "validate", file]);
    expect(result.exitCode).toBe(1);
    const output = result.stdout + result.stderr;
    expect(output).toMatch(new RegExp(`${file}:9:\\d+: error: mappings and lists nest deeper than 64 levels`));
    expect(output.length).toBeLessThan(500);
  });

  it(
    "stops an edge prompt that would build 30 million items, leaving the thread as it was",
    async () => {
      const file = oneRoleWorkflow("runaway", { prompt: "{% for i in (1..30000000) %}x{% endfor %}" });
      const thread = startResultSchema.parse((await temp.uwf(["start", file, "-p", "go", "--json"])).json()).thread;
      const result = await temp.uwf(["step", thread, "--agent", "plan-then-do", "--json"]);
      expect(result.exitCode).toBe(1);
      const error = errorOf(result.stderr);
      expect(error.code).toBe("edge-prompt-failed");
      expect(error.message).toBe(
        "the edge prompt from $START to w cannot be rendered: it built more than the 10,000,000 characters or list items a render may (line:1, col:1)",
      );
      const record = shownThreadSchema.parse((await temp.uwf(["show", thread, "--json"])).json());
      expect(record.stepCount).toBe(0);
    },
    HANG_GUARD_MS,
  );
});

describe("limits on replies", () => {
  it("treats an alias bomb in a reply as an invalid reply: retried, and its raw text kept", async () => {
    const thread = startResultSchema.parse((await temp.uwf(["start", LINEAR, "-p", "go", "--json"])).json()).thread;
    const planned = await temp.uwf(["step", thread, "--agent", "plan-then-do", "--json"]);
    const head = stepResultSchema.parse(planned.json()).head;
    const result = await temp.uwf(["step", thread, "--agent", "alias-bomb", "--json"]);
    expect(result.exitCode).toBe(1);
    const error = errorOf(result.stderr);
    expect(error.code).toBe("agent-failed");
    expect(error.message).toContain("aliases expand too much (more than 100 alias expansions)");
    const run = agentRunNodeSchema.parse((await temp.uwf(["cas", "get", String(error.data.run)])).json());
    expect(run.outcome).toBe("invalid");
    expect(run.attempts).toHaveLength(3);
    for (const attempt of run.attempts) expect(attempt.error).toContain("aliases expand too much");
    const reply = await temp.uwf(["show", String(error.data.run), "--reply"]);
    expect(reply.stdout).toContain("bomb kept for reading");
    const record = shownThreadSchema.parse((await temp.uwf(["show", thread, "--json"])).json());
    expect(record.head).toBe(head);
  });

  it("refuses an alias bomb or deep nesting in fork --output with a clean error, forking nothing", async () => {
    const thread = startResultSchema.parse((await temp.uwf(["start", LINEAR, "-p", "go", "--json"])).json()).thread;
    const head = stepResultSchema.parse(
      (await temp.uwf(["step", thread, "--agent", "plan-then-do", "--json"])).json(),
    ).head;
    const bomb = join(temp.work, "bomb.md");
    const bombReply = Bun.spawnSync(["sh", agent("alias-bomb")], { stdin: "ignore" }).stdout.toString();
    writeFileSync(bomb, bombReply.replace("done:", "plan:"));
    const deep = join(temp.work, "deep.md");
    writeFileSync(deep, `---\nplan: ${nested(100_000)}\n---\n`);
    for (const [file, problem] of [
      [bomb, "aliases expand too much (more than 100 alias expansions)"],
      [deep, "mappings and lists nest deeper than 64 levels"],
    ] as const) {
      const result = await temp.uwf(["fork", head, "--output", file, "--json"]);
      expect(result.exitCode).toBe(1);
      const error = errorOf(result.stderr);
      expect(error.code).toBe("invalid-reply");
      expect(error.message).toStartWith(`${file}: the frontmatter`);
      expect(error.message).toContain(problem);
      expect(error.message.length).toBeLessThan(300);
    }
    expect(await temp.threadCount()).toBe(1);
  });
});

describe("limits on the command line", () => {
  it("cuts an oversized newest step to the read quota, with a note", async () => {
    const thread = startResultSchema.parse((await temp.uwf(["start", LINEAR, "-p", "go", "--json"])).json()).thread;
    expect((await temp.uwf(["step", thread, "--agent", "long-body"])).exitCode).toBe(0);
    const read = await temp.uwf(["read", thread, "--quota", "1000"]);
    expect(read.exitCode).toBe(0);
    expect(read.stdout.length).toBeLessThan(2000);
    expect(read.stdout).toMatch(
      /> Step 1 is cut at the 1000-character quota \(\d+ more characters\); see it whole with `uwf show [0-9A-Z]{13}`\./,
    );
    const json = readResultSchema.parse((await temp.uwf(["read", thread, "--quota", "1000", "--json"])).json());
    expect(json.shownSteps).toBe(1);
    // The step is kept whole: the cut is only in what `read` shows.
    const whole = await temp.uwf(["read", thread, "--quota", "400000"]);
    expect(whole.stdout).toContain("END-OF-BODY");
  });

  it("refuses start --cwd naming no directory as a usage error, writing nothing", async () => {
    const missing = join(temp.work, "nowhere");
    const result = await temp.uwf(["start", LINEAR, "-p", "go", "--cwd", missing]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(`uwf: --cwd ${missing}: no such directory\n`);
    const aFile = join(temp.work, "a-file");
    writeFileSync(aFile, "");
    const notDirectory = await temp.uwf(["run", LINEAR, "-p", "go", "--cwd", aFile, "--json"]);
    expect(notDirectory.exitCode).toBe(2);
    expect(errorOf(notDirectory.stderr)).toEqual({
      code: "usage",
      message: `--cwd ${aFile}: not a directory`,
      data: { cwd: aFile },
    });
    expect(objectFiles()).toEqual([]);
    expect(await temp.threadCount()).toBe(0);
    const existing = join(temp.work, "here");
    mkdirSync(existing);
    expect((await temp.uwf(["start", LINEAR, "-p", "go", "--cwd", existing])).exitCode).toBe(0);
  });

  it("cuts an error message to 2,000 characters, saying how much was cut", async () => {
    const missing = join(temp.work, "n".repeat(5000));
    const human = await temp.uwf(["start", LINEAR, "-p", "go", "--cwd", missing]);
    expect(human.exitCode).toBe(2);
    expect(human.stderr.length).toBeLessThan(LONGEST_ERROR_LINE);
    expect(human.stderr).toMatch(/… \(\d+ more characters cut\)\n$/);
    const json = await temp.uwf(["start", LINEAR, "-p", "go", "--cwd", missing, "--json"]);
    const error = errorOf(json.stderr);
    expect(error.message.length).toBeLessThan(LONGEST_ERROR_LINE);
    expect(error.message).toMatch(/… \(\d+ more characters cut\)$/);
  });

  it("refuses a deeply nested or alias-bombed --inputs file as a short usage error", async () => {
    const deep = join(temp.work, "deep-inputs.yaml");
    writeFileSync(deep, `pr: ${nested(100_000)}\n`);
    const bomb = join(temp.work, "bomb-inputs.yaml");
    writeFileSync(
      bomb,
      Bun.spawnSync(["sh", agent("alias-bomb")], { stdin: "ignore" })
        .stdout.toString()
        .split("---")[1] ?? "",
    );
    for (const [file, problem] of [
      [deep, "mappings and lists nest deeper than 64 levels"],
      [bomb, "aliases expand too much (more than 100 alias expansions)"],
    ] as const) {
      const result = await temp.uwf(["start", LINEAR, "-p", "go", "--inputs", file]);
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toStartWith(`uwf: --inputs ${file}: `);
      expect(result.stderr).toContain(problem);
      expect(result.stderr.length).toBeLessThan(300);
    }
    expect(await temp.threadCount()).toBe(0);
  });

  it("reports an alias bomb in config.yaml as an invalid config, not an internal error", async () => {
    const bomb =
      Bun.spawnSync(["sh", agent("alias-bomb")], { stdin: "ignore" })
        .stdout.toString()
        .split("---")[1] ?? "";
    temp.writeConfig(bomb.replace("done:", "x-done:").replace(/^([b-h]):/gm, "x-$1:"));
    const result = await temp.uwf(["config", "list", "--json"]);
    expect(result.exitCode).toBe(1);
    const error = errorOf(result.stderr);
    expect(error.code).toBe("invalid-config");
    expect(error.message).toContain("aliases expand too much (more than 100 alias expansions)");
  });
});

describe("files uwf reads are checked as regular files of bounded size first", () => {
  /** Over MAX_INPUT_FILE_BYTES (16 MiB). */
  const OVERSIZED = 16 * 1024 * 1024 + 1;

  it(
    "refuses --inputs /dev/zero, a link to it, or an oversized file as one usage line, starting nothing",
    async () => {
      const link = join(temp.work, "inputs.yaml");
      symlinkSync("/dev/zero", link);
      const big = join(temp.work, "big.yaml");
      writeFileSync(big, `a: ${"x".repeat(OVERSIZED)}\n`);
      for (const [file, problem] of [
        ["/dev/zero", "not a regular file"],
        [link, "not a regular file"],
        [big, `is ${OVERSIZED + 4} bytes, over the 16 MiB limit`],
      ] as const) {
        const result = await temp.uwf(["start", LINEAR, "-p", "go", "--inputs", file]);
        expect({ file, exitCode: result.exitCode, stderr: result.stderr }).toEqual({
          file,
          exitCode: 2,
          stderr: `uwf: --inputs ${file}: ${problem}\n`,
        });
      }
      const piped = await temp.uwf(["start", LINEAR, "-p", "go", "--inputs", "-"], { stdin: "x".repeat(OVERSIZED) });
      expect(piped.exitCode).toBe(2);
      expect(piped.stderr).toBe("uwf: --inputs - (stdin): is over the 16 MiB limit\n");
      expect(await temp.threadCount()).toBe(0);
      expect(objectFiles()).toEqual([]);
    },
    HANG_GUARD_MS,
  );

  it(
    "refuses an oversized --prompt-file and a prompt on stdin over the limit as usage (exit 2, as --inputs), starting nothing",
    async () => {
      const big = join(temp.work, "prompt.md");
      writeFileSync(big, "x".repeat(OVERSIZED));
      const fromFile = await temp.uwf(["start", LINEAR, "--prompt-file", big]);
      expect(fromFile.exitCode).toBe(2);
      expect(fromFile.stderr).toBe(`uwf: --prompt-file ${big}: is ${OVERSIZED} bytes, over the 16 MiB limit\n`);
      const fromStdin = await temp.uwf(["start", LINEAR, "-p", "-"], { stdin: "x".repeat(OVERSIZED) });
      expect(fromStdin.exitCode).toBe(2);
      expect(fromStdin.stderr).toBe("uwf: -p -: is over the 16 MiB limit\n");
      expect(await temp.threadCount()).toBe(0);
    },
    HANG_GUARD_MS,
  );

  it(
    "does not hang on a config.yaml linked to /dev/zero: commands that need no config work, the others say why",
    async () => {
      rmSync(join(temp.home, "config.yaml"), { force: true });
      symlinkSync("/dev/zero", join(temp.home, "config.yaml"));
      const list = await temp.uwf(["list"]);
      expect({ exitCode: list.exitCode, stderr: list.stderr }).toEqual({ exitCode: 0, stderr: "" });
      const config = await temp.uwf(["config", "list"]);
      expect(config.exitCode).toBe(1);
      expect(config.stderr).toContain(`${join(temp.home, "config.yaml")}: cannot read the file: not a regular file\n`);
      const started = await temp.uwf(["run", LINEAR, "-p", "go", "--json"]);
      expect(started.exitCode).toBe(1);
      expect(errorOf(started.stderr).code).toBe("invalid-config");
    },
    HANG_GUARD_MS,
  );
});

describe("values and names JavaScript objects or JSON cannot carry", () => {
  it("refuses --input values JSON cannot carry exactly, and inputs named like object machinery, as usage errors", async () => {
    const inputsFile = join(temp.work, "inputs.yaml");
    writeFileSync(inputsFile, "ok: 1\n__proto__: { polluted: true }\n");
    for (const [args, message] of [
      [
        ["--input", "k=.inf"],
        "--input k: .inf (or a number too large to hold) is not a number JSON can carry; quote it to keep it as text",
      ],
      [
        ["--input", "k={a: [1, .nan]}"],
        "--input k: a[1]: .nan is not a number JSON can carry; quote it to keep it as text",
      ],
      [
        ["--input", "id=9007199254740993"],
        "--input id: 9007199254740993 is beyond 2^53, so JSON cannot carry it exactly; quote it to keep it as text",
      ],
      [
        ["--input", "constructor=2"],
        '--input "constructor=2": "constructor" is a name every JavaScript object already has, so it cannot name an input',
      ],
      [
        ["--inputs", inputsFile],
        `--inputs ${inputsFile}: "__proto__" is a name every JavaScript object already has, so it cannot name an input`,
      ],
    ] as const) {
      const result = await temp.uwf(["start", LINEAR, "-p", "go", ...args]);
      expect({ args, exitCode: result.exitCode, stderr: result.stderr }).toEqual({
        args,
        exitCode: 2,
        stderr: `uwf: ${message}\n`,
      });
    }
    expect(await temp.threadCount()).toBe(0);
    // The largest integer JSON carries exactly is taken as it is.
    const started = await temp.uwf(["start", LINEAR, "-p", "go", "--input", "id=9007199254740991", "--json"]);
    expect(started.exitCode).toBe(0);
  });

  it("refuses roles and fields named __proto__ or constructor with one problem each, not an internal error", async () => {
    const file = writeWorkflow(temp.work, "proto", [
      "roles:",
      "  __proto__:",
      "    goal: Work.",
      "    frontmatter: { type: object, properties: { constructor: { type: string } } }",
      "graph:",
      '  $START: [{ role: __proto__, prompt: "Go." }]',
      "  __proto__: [{ role: $END }]",
    ]);
    const validated = await temp.uwf(["workflow", "validate", file]);
    expect(validated.exitCode).toBe(1);
    expect(validated.stderr).not.toContain("internal error");
    const named =
      '" is a name every JavaScript object already has, so it cannot name a role, condition, field or input';
    expect(validated.stdout + validated.stderr).toBe(
      [
        `${file}:3:3: error: roles.__proto__: "__proto__${named}`,
        `${file}:5:48: error: roles.__proto__.frontmatter.properties.constructor: "constructor${named}`,
        `${file}:8:3: error: graph.__proto__: "__proto__${named}`,
        `${file}: 3 error(s)`,
        "",
      ].join("\n"),
    );
    const started = await temp.uwf(["start", file, "-p", "go", "--json"]);
    expect(started.exitCode).toBe(1);
    expect(errorOf(started.stderr).code).toBe("invalid-workflow");
    expect(await temp.threadCount()).toBe(0);
  });
});

describe("the environment uwf runs in", () => {
  it("refuses a TMPDIR that is a file or missing as one usage line, before anything is written", async () => {
    const file = join(temp.work, "not-a-folder");
    writeFileSync(file, "");
    for (const [directory, what] of [
      [file, "is not a directory"],
      [join(temp.work, "missing"), "does not exist"],
    ] as const) {
      const run = await temp.uwf(["run", LINEAR, "-p", "go", "--agent", "plan-then-do"], {
        env: { TMPDIR: directory },
      });
      expect({ exitCode: run.exitCode, stderr: run.stderr }).toEqual({
        exitCode: 2,
        stderr: `uwf: TMPDIR ${directory} ${what}: point it at a directory, or unset it\n`,
      });
    }
    expect(await temp.threadCount()).toBe(0);
    expect(objectFiles()).toEqual([]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { buildCliBundle, type CliBundle, type ModuleSetRun, runRecordingModules } from "./module-set/module-set.ts";

/**
 * Issue 43: every `uwf step` is a new process, so the hot commands evaluate only the modules they use.
 * The CLI is built as it ships (a code-split bundle), each command runs on it in a temp home, and the
 * modules of the chunks it loaded are listed (see module-set/module-set.ts): deterministic, not timed.
 */

/** What no hot command may evaluate, each with why it is out. */
const FORBIDDEN: readonly { pattern: RegExp; what: string }[] = [
  { pattern: /^node_modules\/@anthropic-ai\//, what: "a provider SDK" },
  { pattern: /^node_modules\/openai\//, what: "a provider SDK" },
  { pattern: /^node_modules\/@modelcontextprotocol\//, what: "the MCP SDK" },
  { pattern: /^node_modules\/@opentelemetry\//, what: "OpenTelemetry" },
  { pattern: /^node_modules\/postgres\//, what: "the PostgreSQL client" },
  { pattern: /^node_modules\/croner\//, what: "the cron parser (schedules)" },
  { pattern: /^node_modules\/ajv\//, what: "the JSON Schema compiler of workflow validation" },
  { pattern: /^packages\/(eval|ui|otel)\//, what: "an optional package" },
  {
    pattern: /^packages\/agent-kit\/src\/(mcp|anthropic|openai|tool-loop\/(?!compute-usage))/,
    what: "a model runtime",
  },
  { pattern: /^packages\/cli\/src\/commands\/(mcp|ui|schedule|eval|trace)\//, what: "another command" },
  { pattern: /^packages\/cli\/src\/telemetry\/(?!telemetry-wanted)/, what: "telemetry export" },
  { pattern: /^packages\/engine\/src\/(schedules|worker|replay|fork|repair)\//, what: "engine code of other commands" },
  {
    pattern: /^packages\/workflow\/src\/(schedule|validate\/(?!validate-start-inputs))/,
    what: "schedules or validation",
  },
  {
    pattern: /^packages\/cas\/src\/postgres\/(?!(is|parse)-postgres-store-url|mask-store-url|open-postgres-store)/,
    what: "the PostgreSQL store",
  },
];

/**
 * Beside those, what a step and `list` do not evaluate: the schema library. They read records and nodes uwf
 * wrote through protocol's schemas, so they check kinds instead (storedNodeAs); `show` parses what it shows.
 */
const SCHEMA_LIBRARY = { pattern: /^node_modules\/zod\//, what: "the schema library (protocol's zod schemas)" };

/** The `/bin/sh` command agent of the step benchmark: a reply for the step it is told, reading no prompt. */
const COMMAND_AGENT_CONFIG = `agents:
  sh:
    command: /bin/sh
    args:
      - -c
      - "printf -- '---\\\\nn: %s\\\\ndone: false\\\\n---\\\\n\\\\nStep %s.\\\\n' \\"$UWF_STEP\\" \\"$UWF_STEP\\""
defaultAgent: sh
`;

const LOOP_WORKFLOW = resolve(import.meta.dir, "../bench/fixtures/loop.yaml");

let bundle: CliBundle;
let folder: string;
let environment: Record<string, string>;
let thread: string;

function uwf(...args: string[]): ModuleSetRun {
  return runRecordingModules(bundle, args, environment);
}

/** The forbidden modules `run` evaluated; `own` names the command's own modules, which a pattern above may match. */
function forbiddenIn(run: ModuleSetRun, forbidden = FORBIDDEN, own?: RegExp): string[] {
  const modules = own === undefined ? run.modules : run.modules.filter((module) => !own.test(module));
  return modules.flatMap((module) =>
    forbidden.filter(({ pattern }) => pattern.test(module)).map(({ what }) => `${module} (${what})`),
  );
}

beforeAll(async () => {
  bundle = await buildCliBundle();
  folder = mkdtempSync(join(tmpdir(), "uwf-module-set-home-"));
  const home = join(folder, "home");
  environment = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: folder, UWF_HOME: home, NO_COLOR: "1" };
  mkdirSync(home);
  writeFileSync(join(home, "config.yaml"), COMMAND_AGENT_CONFIG);
  expect(uwf("workflow", "add", LOOP_WORKFLOW).exitCode).toBe(0);
  const started = uwf("--json", "start", "loop", "-p", "Count.");
  expect(started.exitCode).toBe(0);
  thread = JSON.parse(started.stdout).thread;
  const scenario = { steps: [{ role: "worker", output: { n: 1, done: false }, body: "One." }] };
  writeFileSync(join(folder, "scenario.json"), JSON.stringify(scenario));
}, 60_000);

afterAll(() => {
  bundle?.remove();
  if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
});

describe("the modules a hot command evaluates (issue 43)", () => {
  it("records what a command loads: a step evaluates the engine's step and the command agent launcher", () => {
    const run = uwf("step", thread);
    expect(run.exitCode).toBe(0);
    expect(run.modules).toContain("packages/engine/src/step/step-thread.ts");
    expect(run.modules).toContain("packages/agent-kit/src/launch/launch-command-agent.ts");
    expect(forbiddenIn(run, [...FORBIDDEN, SCHEMA_LIBRARY])).toEqual([]);
  });

  it("steps with the scripted agent without a forbidden module", () => {
    const forked = uwf("--json", "start", "loop", "-p", "Count again.");
    const second = JSON.parse(forked.stdout).thread;
    const run = uwf("step", second, "--agent", `scripted:${join(folder, "scenario.json")}`);
    expect(run.stderr).toBe("");
    expect(run.exitCode).toBe(0);
    expect(run.modules).toContain("packages/agent-kit/src/launch/scripted-agent.ts");
    expect(forbiddenIn(run, [...FORBIDDEN, SCHEMA_LIBRARY])).toEqual([]);
  });

  it("prints --version from the entry file alone", () => {
    const run = uwf("--version");
    expect(run.exitCode).toBe(0);
    expect(run.modules).toEqual(["packages/cli/src/bin.ts", "packages/cli/src/version.ts"]);
  });

  it("lists threads without a forbidden module", () => {
    const run = uwf("list", "--limit", "50");
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain(thread);
    expect(forbiddenIn(run, [...FORBIDDEN, SCHEMA_LIBRARY])).toEqual([]);
  });

  it("diffs two threads without a forbidden module", () => {
    const other = JSON.parse(uwf("--json", "start", "loop", "-p", "Count differently.").stdout).thread;
    const run = uwf("diff", thread, other);
    expect(run.exitCode).toBe(0);
    expect(run.modules).toContain("packages/engine/src/fork/diff-chains.ts");
    // Its own modules: the diff and the reading of the steps it compares.
    const own = /^packages\/engine\/src\/fork\/(diff-chains|compared-steps)\.ts$/;
    expect(forbiddenIn(run, [...FORBIDDEN, SCHEMA_LIBRARY], own)).toEqual([]);
  });

  it("ticks with nothing due without a forbidden module, the YAML parser, or the step", () => {
    const run = uwf("tick");
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain("nothing due");
    expect(run.modules).toContain("packages/engine/src/suspensions/expire-due-suspensions.ts");
    const unused = [
      SCHEMA_LIBRARY,
      {
        pattern: /^node_modules\/yaml\//,
        what: "the YAML parser (config.yaml is read only when a fire starts a thread)",
      },
      { pattern: /^packages\/engine\/src\/step\//, what: "the step (loaded only when something is due)" },
    ];
    const own =
      /^packages\/(engine\/src\/schedules\/fire-due-schedules|cli\/src\/commands\/schedule\/run-fired-threads)\.ts$/;
    expect(forbiddenIn(run, [...FORBIDDEN, ...unused], own)).toEqual([]);
  });

  it("shows a thread without a forbidden module", () => {
    const run = uwf("show", thread);
    expect(run.exitCode).toBe(0);
    expect(forbiddenIn(run)).toEqual([]);
  });

  it("sees a forbidden module when one is loaded (the check can fail)", () => {
    const run = uwf("workflow", "validate", LOOP_WORKFLOW);
    expect(run.exitCode).toBe(0);
    expect(forbiddenIn(run).some((line) => line.includes("node_modules/ajv/"))).toBe(true);
  });
});

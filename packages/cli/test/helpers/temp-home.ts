import { afterEach, beforeEach } from "bun:test";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import {
  type ListedThread,
  listResultSchema,
  type ShownThread,
  shownThreadSchema,
  startResultSchema,
} from "@uwf/protocol";
import { type ProcessRun, runProcess, UWF_COMMAND, UWF_SOURCES } from "./run-process.ts";
import { TEST_TEMP_ROOT } from "./test-temp-root.ts";

export const FIXTURES = resolve(import.meta.dir, "../fixtures");
export const EXAMPLES = resolve(import.meta.dir, "../../../../examples");

/** A workflow of the fixtures by name: `fixtureWorkflow("ask")` is fixtures/workflows/ask.yaml. */
export function fixtureWorkflow(name: string): string {
  return join(FIXTURES, "workflows", `${name}.yaml`);
}

/** A scenario of the fixtures by name: `fixtureScenario("ask")` is fixtures/workflows/ask.scenario.yaml. */
export function fixtureScenario(name: string): string {
  return join(FIXTURES, "workflows", `${name}.scenario.yaml`);
}

/** `--agent` for the scripted agent playing a fixture scenario: `scripted:` and `fixtureScenario(name)`. */
export function scriptedFixture(name: string): string {
  return `scripted:${fixtureScenario(name)}`;
}

/** The two-role workflow most e2e tests step through, and the scripted agent that answers for it. */
export const LINEAR = fixtureWorkflow("linear");
export const SCRIPTED = scriptedFixture("linear");

/** A fake agent of the fixtures: a small real script (`plan-then-do`, `sleepy`, `slow-valid`…). */
export function fixtureAgent(name: string): string {
  return join(FIXTURES, "agents", `${name}.sh`);
}

/** config.yaml lines: `agents:` with each fixture agent under its own name, run by sh. */
export function fixtureAgentsConfig(names: readonly string[]): string[] {
  return [
    "agents:",
    ...names.flatMap((name) => [`  ${name}:`, "    command: sh", `    args: ["${fixtureAgent(name)}"]`]),
  ];
}

/** `uwf run` of an example workflow with its scripted scenario, offline, answering in JSON. */
export function runExampleArgs(example: string, prompt: string): string[] {
  const scenario = join(EXAMPLES, `${example}.scenario.yaml`);
  return ["run", join(EXAMPLES, `${example}.yaml`), "-p", prompt, "--agent", `scripted:${scenario}`, "--json"];
}

export interface UwfRun extends ProcessRun {
  /** stdout parsed as JSON (for `--json` runs). */
  json<Value = unknown>(): Value;
}

export interface TempHome {
  home: string;
  /** A scratch directory beside the home: the threads' cwd. */
  work: string;
  uwf(args: string[], options?: { stdin?: string; env?: Record<string, string>; cwd?: string }): Promise<UwfRun>;
  spawn(args: string[], options?: { env?: Record<string, string> }): ReturnType<typeof Bun.spawn>;
  /** `sh -c SCRIPT` in the work directory, with the real uwf on hand as "$UWF" (`$UWF wait T && echo ok`). */
  shell(script: string, options?: { env?: Record<string, string> }): Promise<ProcessRun>;
  /** `uwf start WORKFLOW -p PROMPT --json`; the new thread's id (throws with uwf's stderr when it fails). */
  startThread(workflow?: string, prompt?: string): Promise<string>;
  /** The thread as `uwf show THREAD --json` reports it. */
  showThread(thread: string): Promise<ShownThread>;
  /** The threads `uwf list FILTER… --json` lists (`"--running"`: those a process steps now). */
  listThreads(...filter: string[]): Promise<ListedThread[]>;
  /** How many threads `uwf list FILTER… --json` counts (all of them without a filter). */
  threadCount(...filter: string[]): Promise<number>;
  /** How many objects the home's embedded store holds, read from its folder. */
  objectCount(): number;
  writeConfig(yaml: string): void;
  cleanup(): void;
}

export interface TempHomeOptions {
  /** An executable to run instead of UWF_COMMAND: a compiled uwf. */
  binary?: string;
  /** Run the sources (`bun src/bin.ts`) even when UWF_COMMAND is a compiled binary. */
  sources?: boolean;
  /** Environment variables every command of this home gets (`UWF_STORE` for a PostgreSQL store, say). */
  env?: Record<string, string>;
}

/** A fresh uwf home in a temp dir; runs the real binary with it (never touching ~/.uwf). */
export function createTempHome(options: TempHomeOptions = {}): TempHome {
  const root = mkdtempSync(join(TEST_TEMP_ROOT, "uwf-e2e-"));
  const home = join(root, "home");
  const work = join(root, "work");
  Bun.spawnSync(["mkdir", "-p", home, work]);
  const baseEnv = { ...environmentWithoutUwf(), UWF_HOME: home, NO_COLOR: "1", HOME: root, ...options.env };
  const uwfCommand =
    options.binary !== undefined
      ? [options.binary]
      : options.sources === true
        ? [process.execPath, UWF_SOURCES]
        : UWF_COMMAND;
  const command = (args: string[]) => [...uwfCommand, ...args];
  const home_: TempHome = {
    home,
    work,
    async uwf(args, options = {}) {
      const run = await runProcess(command(args), {
        cwd: options.cwd ?? work,
        env: { ...baseEnv, ...options.env },
        ...(options.stdin === undefined ? {} : { stdin: options.stdin }),
      });
      return {
        ...run,
        json<Value>() {
          return JSON.parse(run.stdout) as Value;
        },
      };
    },
    spawn(args, options = {}) {
      return Bun.spawn(command(args), {
        cwd: work,
        env: { ...baseEnv, ...options.env },
        stdin: "ignore",
        stdout: "pipe",
        stderr: "pipe",
      });
    },
    shell(script, options = {}) {
      // Split by the shell where the script says $UWF, so the paths must hold no spaces (as the temp dirs do not).
      const uwf = command([]).join(" ");
      return runProcess(["sh", "-c", script], { cwd: work, env: { ...baseEnv, UWF: uwf, ...options.env } });
    },
    writeConfig(yaml) {
      writeFileSync(join(home, "config.yaml"), yaml);
    },
    async startThread(workflow = LINEAR, prompt = "Write hello.txt") {
      const started = await home_.uwf(["start", workflow, "-p", prompt, "--json"]);
      if (started.exitCode !== 0) throw new Error(`uwf start exited ${started.exitCode}: ${started.stderr}`);
      return startResultSchema.parse(started.json()).thread;
    },
    async showThread(thread) {
      return shownThreadSchema.parse((await home_.uwf(["show", thread, "--json"])).json());
    },
    async listThreads(...filter) {
      return listResultSchema.parse((await home_.uwf(["list", ...filter, "--json"])).json()).threads;
    },
    async threadCount(...filter) {
      return listResultSchema.parse((await home_.uwf(["list", "--limit", "0", ...filter, "--json"])).json()).total;
    },
    objectCount() {
      const objects = join(home, "objects");
      return readdirSync(objects).reduce((count, folder) => count + readdirSync(join(objects, folder)).length, 0);
    },
    cleanup() {
      rmSync(root, { recursive: true, force: true });
    },
  };
  return home_;
}

/** The test process's environment less every `UWF_*` variable: a test's uwf sees only what the test gives it. */
export function environmentWithoutUwf(): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("UWF_")));
}

/**
 * A fresh temp home for each test of the file (registered with beforeEach, cleaned up with
 * afterEach), `setUp` run on it first (a config, a workflow). The object it returns stands for the
 * current test's home: `temp.uwf([...])` runs in it.
 */
export function useTempHome(options: TempHomeOptions & { setUp?: (temp: TempHome) => void } = {}): TempHome {
  let current: TempHome | undefined;
  beforeEach(() => {
    current = createTempHome(options);
    options.setUp?.(current);
  });
  afterEach(() => {
    current?.cleanup();
    current = undefined;
  });
  return currentWhileTestRuns(() => current, "the temp home");
}

/**
 * An object that stands for what `current()` returns during the running test (made in a beforeEach),
 * so a test file can hold it in a `const`; touching it outside a test throws, naming `what`.
 */
export function currentWhileTestRuns<Value extends object>(current: () => Value | undefined, what: string): Value {
  return new Proxy({} as Value, {
    get(_target, key) {
      const value = current();
      if (value === undefined) throw new Error(`${what} exists only while a test runs`);
      const field: unknown = Reflect.get(value, key);
      return typeof field === "function" ? field.bind(value) : field;
    },
  });
}

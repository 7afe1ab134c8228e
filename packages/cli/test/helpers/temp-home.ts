import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { type ShownThread, shownThreadSchema, startResultSchema } from "@uwf/protocol";

const BIN = resolve(import.meta.dir, "../../src/bin.ts");
export const FIXTURES = resolve(import.meta.dir, "../fixtures");
export const EXAMPLES = resolve(import.meta.dir, "../../../../examples");
/** The two-role workflow most e2e tests step through, and the scripted agent that answers for it. */
export const LINEAR = join(FIXTURES, "workflows/linear.yaml");
export const SCRIPTED = `scripted:${join(FIXTURES, "workflows/linear.scenario.yaml")}`;

/** `uwf run` of an example workflow with its scripted scenario, offline, answering in JSON. */
export function runExampleArgs(example: string, prompt: string): string[] {
  const scenario = join(EXAMPLES, `${example}.scenario.yaml`);
  return ["run", join(EXAMPLES, `${example}.yaml`), "-p", prompt, "--agent", `scripted:${scenario}`, "--json"];
}

export interface UwfRun {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (for `--json` runs). */
  json<Value = unknown>(): Value;
}

export interface TempHome {
  home: string;
  /** A scratch directory beside the home: the threads' cwd. */
  work: string;
  uwf(args: string[], options?: { stdin?: string; env?: Record<string, string>; cwd?: string }): Promise<UwfRun>;
  spawn(args: string[], options?: { env?: Record<string, string> }): ReturnType<typeof Bun.spawn>;
  /** `uwf start WORKFLOW -p PROMPT --json`; the new thread's id (throws with uwf's stderr when it fails). */
  startThread(workflow?: string, prompt?: string): Promise<string>;
  /** The thread as `uwf show THREAD --json` reports it. */
  showThread(thread: string): Promise<ShownThread>;
  writeConfig(yaml: string): void;
  cleanup(): void;
}

export interface TempHomeOptions {
  /** An executable to run instead of the sources (`bun src/bin.ts`): a compiled uwf. */
  binary?: string;
  /** Environment variables every command of this home gets (`UWF_STORE` for a PostgreSQL store, say). */
  env?: Record<string, string>;
}

/** A fresh uwf home in a temp dir; runs the real binary with it (never touching ~/.uwf). */
export function createTempHome(options: TempHomeOptions = {}): TempHome {
  const root = mkdtempSync(join(tmpdir(), "uwf-e2e-"));
  const home = join(root, "home");
  const work = join(root, "work");
  Bun.spawnSync(["mkdir", "-p", home, work]);
  const baseEnv = { ...process.env, UWF_HOME: home, NO_COLOR: "1", HOME: root, ...options.env };
  const command = (args: string[]) =>
    options.binary === undefined ? [process.execPath, BIN, ...args] : [options.binary, ...args];
  const home_: TempHome = {
    home,
    work,
    async uwf(args, options = {}) {
      const child = Bun.spawn(command(args), {
        cwd: options.cwd ?? work,
        env: { ...baseEnv, ...options.env },
        stdin: options.stdin === undefined ? "ignore" : new Blob([options.stdin]),
        stdout: "pipe",
        stderr: "pipe",
      });
      const [stdout, stderr, exitCode] = await Promise.all([
        new Response(child.stdout).text(),
        new Response(child.stderr).text(),
        child.exited,
      ]);
      return {
        exitCode,
        stdout,
        stderr,
        json<Value>() {
          return JSON.parse(stdout) as Value;
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
    cleanup() {
      rmSync(root, { recursive: true, force: true });
    },
  };
  return home_;
}

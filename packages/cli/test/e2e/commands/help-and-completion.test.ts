import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { REF_SCHEMA_VERSION } from "@uwf/cas";
import {
  completionCandidatesResultSchema,
  completionScriptResultSchema,
  errorResultSchema,
  helpTopicResultSchema,
  startResultSchema,
  versionResultSchema,
} from "@uwf/protocol";
import { COMMAND_TABLE } from "../../../src/commands/command-table.ts";
import { isCommandGroup } from "../../../src/commands/table/define-command.ts";
import { EXIT_CODE_BY_ERROR_CODE } from "../../../src/exit-codes.ts";
import { VERSION } from "../../../src/version.ts";
import { type ProcessRun, runProcess } from "../../helpers/run-process.ts";
import { createTempHome, LINEAR, type TempHome } from "../../helpers/temp-home.ts";

let temp: TempHome;
let thread: string;
/** A folder holding an executable `uwf` that runs the sources, for the shells to find on PATH. */
let binFolder: string;

beforeAll(async () => {
  temp = createTempHome();
  await temp.uwf(["workflow", "add", LINEAR]);
  thread = startResultSchema.parse((await temp.uwf(["start", "linear", "-p", "Task", "--json"])).json()).thread;
  binFolder = join(temp.work, "..", "bin");
  mkdirSync(binFolder);
  const bin = resolve(import.meta.dir, "../../../src/bin.ts");
  writeFileSync(join(binFolder, "uwf"), `#!/bin/sh\nexec "${process.execPath}" "${bin}" "$@"\n`);
  chmodSync(join(binFolder, "uwf"), 0o755);
});
afterAll(() => temp.cleanup());

/** Runs a shell script with the sources' `uwf` first on PATH and the temp home. */
function runShell(shell: string, script: string): Promise<ProcessRun> {
  return runProcess([shell, "-c", script], {
    cwd: temp.work,
    env: { ...process.env, PATH: `${binFolder}:${process.env.PATH}`, UWF_HOME: temp.home, NO_COLOR: "1" },
  });
}

async function complete(words: string[], home?: string) {
  const args = home === undefined ? ["__complete", "--", ...words] : ["__complete", "--", "--home", home, ...words];
  const result = await temp.uwf([...args]);
  expect({ exitCode: result.exitCode, stderr: result.stderr }).toEqual({ exitCode: 0, stderr: "" });
  return result.stdout.split("\n").filter((line) => line !== "");
}

function installed(shell: string): boolean {
  return Bun.which(shell) !== null;
}

describe("uwf completion", () => {
  it("bash: sourcing the script registers the completion for uwf", async () => {
    const result = await runShell("bash", "source <(uwf completion bash) && complete -p uwf");
    expect(result).toEqual({ exitCode: 0, stdout: "complete -F _uwf_complete uwf\n", stderr: "" });
  });

  it("bash: completes a thread id from its prefix and a command from its start", async () => {
    const script = [
      "source <(uwf completion bash)",
      `COMP_WORDS=(uwf step ${thread.slice(0, 8).toLowerCase()}); COMP_CWORD=2; _uwf_complete; echo "\${COMPREPLY[*]}"`,
      `COMP_WORDS=(uwf work); COMP_CWORD=1; _uwf_complete; echo "\${COMPREPLY[*]}"`,
    ].join("\n");
    const result = await runShell("bash", script);
    expect(result).toEqual({ exitCode: 0, stdout: `${thread}\nworkflow worker\n`, stderr: "" });
  });

  it.skipIf(!installed("zsh"))(
    "zsh: the script parses, and registers _uwf after compinit (skipped without zsh)",
    async () => {
      const parsed = await runShell("zsh", "uwf completion zsh > _uwf && zsh -n _uwf");
      expect(parsed).toEqual({ exitCode: 0, stdout: "", stderr: "" });
      const registered = await runShell(
        "zsh",
        "autoload -Uz compinit && compinit -u -D && source <(uwf completion zsh) && print -r -- $_comps[uwf]",
      );
      expect(registered).toEqual({ exitCode: 0, stdout: "_uwf\n", stderr: "" });
    },
  );

  it.skipIf(!installed("fish"))("fish: the script parses and completes thread ids (skipped without fish)", async () => {
    const parsed = await runShell("bash", "uwf completion fish > uwf.fish && fish -n uwf.fish");
    expect(parsed).toEqual({ exitCode: 0, stdout: "", stderr: "" });
    const result = await runShell("fish", `uwf completion fish | source; complete -C "uwf log ${thread.slice(0, 10)}"`);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(`${thread}\tlinear active planner\n`);
  });

  it("prints each script as one JSON document under --json", async () => {
    for (const shell of ["bash", "zsh", "fish"]) {
      const result = await temp.uwf(["completion", shell, "--json"]);
      expect(result.exitCode).toBe(0);
      expect(completionScriptResultSchema.parse(result.json()).shell).toBe(shell as "bash");
    }
    const unknown = await temp.uwf(["completion", "tcsh"]);
    expect(unknown).toMatchObject({ exitCode: 2, stdout: "" });
    expect(unknown.stderr).toContain("completion tcsh: expected one of bash, zsh, fish");
  });
});

describe("uwf __complete", () => {
  it("completes a thread id prefix, case-insensitively, with its workflow and status", async () => {
    expect(await complete(["step", thread.slice(0, 6).toLowerCase()])).toEqual([`${thread}\tlinear active planner`]);
    expect(await complete(["thread", "show", ""])).toEqual([`${thread}\tlinear active planner`]);
    expect(await complete(["step", "ZZZZ"])).toEqual([]);
  });

  it("completes registered workflow names and the home's workflow files, then files", async () => {
    mkdirSync(join(temp.home, "workflows"), { recursive: true });
    writeFileSync(join(temp.home, "workflows", "review.yaml"), "name: review\n");
    expect(await complete(["start", ""])).toEqual(["linear\tworkflow", "review\tworkflow", ":file"]);
    expect(await complete(["run", "li"])).toEqual(["linear\tworkflow", ":file"]);
    expect(await complete(["list", "--workflow", "r"])).toEqual(["review\tworkflow", ":file"]);
  });

  it("completes commands, subcommands, flags and flag values from the command table", async () => {
    expect(await complete(["sta"])).toEqual([expect.stringMatching(/^start\tstart a thread/)]);
    expect(await complete(["ste"])).toEqual([expect.stringMatching(/^step\trun the thread/)]);
    expect((await complete(["cas", "v"])).map((line) => line.split("\t")[0])).toEqual(["verify"]);
    expect((await complete(["step", "x", "--a"])).map((line) => line.split("\t")[0])).toEqual(["--all", "--agent"]);
    expect((await complete(["--js"])).map((line) => line.split("\t")[0])).toEqual(["--json", "--jsonl"]);
    expect(await complete(["list", "--status", "s"])).toEqual(["suspended"]);
    expect(await complete(["compare", "x", "--sort", "s"])).toEqual(["steps", "status"]);
    expect(await complete(["start", "linear", "--cwd", ""])).toEqual([":directory"]);
    expect(await complete(["completion", ""])).toEqual(["bash", "zsh", "fish"]);
    expect((await complete(["help", "e"])).map((line) => line.split("\t")[0])).toEqual([
      "exit-codes",
      "eval",
      "explore",
    ]);
    // No hidden command, and nothing after a command's last argument.
    expect((await complete(["__"])).length).toBe(0);
    expect(await complete(["log", thread, ""])).toEqual([]);
  });

  it("reads the home named on the line, and never creates one", async () => {
    const missing = join(temp.work, "no-home-here");
    expect(await complete(["step", ""], missing)).toEqual([]);
    expect(existsSync(missing)).toBe(false);
    const json = await temp.uwf(["__complete", "--json", "--", "--home", temp.home, "log", ""]);
    expect(completionCandidatesResultSchema.parse(json.json())).toEqual({
      candidates: [{ value: thread, description: "linear active planner" }],
      files: null,
    });
  });
});

describe("help", () => {
  it("shows one to three examples and the global flags in every command's --help", async () => {
    const commands = COMMAND_TABLE.flatMap((entry) =>
      isCommandGroup(entry) ? entry.commands.map((command) => [entry.name, command.name]) : [[entry.name]],
    ).filter(([name]) => name !== "__complete");
    for (const words of commands) {
      const result = await temp.uwf([...words, "--help"]);
      expect({ words, exitCode: result.exitCode, stderr: result.stderr }).toEqual({ words, exitCode: 0, stderr: "" });
      expect(result.stdout).toContain("Global Options:");
      expect(result.stdout).toContain("--json");
      const examples = result.stdout.split("Examples:\n")[1]?.trimEnd().split("\n") ?? [];
      expect({ words, count: examples.length > 0 && examples.length <= 3 }).toEqual({ words, count: true });
      for (const example of examples) expect(example).toStartWith("  ");
    }
  });

  it("uwf --help lists the commands under their headings: run, inspect, experiment, workers, store, set up", async () => {
    const help = await temp.uwf(["--help"]);
    expect(help.exitCode).toBe(0);
    const headings = help.stdout.split("\n").filter((line) => /^[A-Z][^:]*:$/.test(line));
    expect(headings).toEqual([
      "Options:",
      "Run threads:",
      "Inspect threads:",
      "Experiment (fork, compare and judge):",
      "Workers:",
      "Store:",
      "Set up:",
      "Examples:",
    ]);
    /** The command names listed under one heading, in order. */
    const under = (heading: string) =>
      (help.stdout.split(`\n${heading}\n`)[1] ?? "")
        .split("\n\n")[0]
        ?.split("\n")
        .filter((line) => /^ {2}\S/.test(line))
        .map((line) => line.trim().split(" ")[0]);
    expect(under("Run threads:")).toEqual(["start", "run", "step", "resume", "cancel", "delete", "thread"]);
    expect(under("Inspect threads:")).toEqual(["list", "show", "log", "read", "tree", "ui", "trace", "mcp"]);
    expect(under("Experiment (fork, compare and judge):")).toEqual([
      "fork",
      "diff",
      "compare",
      "eval",
      "explore",
      "scenario",
      "replay",
    ]);
    expect(under("Workers:")).toEqual(["worker", "queue", "wait", "schedule", "tick"]);
    expect((await temp.uwf(["thread", "--help"])).stdout).toContain("\nInspect threads:\n  list");
  });

  it("uwf help COMMAND prints that command's help; uwf help TOPIC prints the topic", async () => {
    expect((await temp.uwf(["help", "workflow", "add"])).stdout).toBe(
      (await temp.uwf(["workflow", "add", "--help"])).stdout,
    );
    const exitCodes = await temp.uwf(["help", "exit-codes"]);
    expect(exitCodes.exitCode).toBe(0);
    for (const code of [0, 1, 2, 10, 20, 75, 129, 130, 141])
      expect(exitCodes.stdout).toMatch(new RegExp(`^ +${code}  `, "m"));
    // Every error code, under its exit code.
    const listed = exitCodes.stdout.replaceAll(/\n {7}/g, " ");
    for (const [errorCode, exit] of Object.entries(EXIT_CODE_BY_ERROR_CODE)) {
      expect(listed).toMatch(new RegExp(`^ +${exit}  [^\n]*error codes:[^\n]*\\b${errorCode}\\b`, "m"));
    }
    const json = helpTopicResultSchema.parse((await temp.uwf(["help", "json", "--json"])).json());
    expect(json.topic).toBe("json");
    expect(json.text).toMatch(/uwf step +stepResultSchema/);
    const unknown = await temp.uwf(["help", "nothing"]);
    expect(unknown).toMatchObject({ exitCode: 2, stdout: "" });
    expect(unknown.stderr).toContain("help nothing: no such command or topic (topics: exit-codes, json)");
  });

  it("uwf --json with no command is a usage error printed as JSON", async () => {
    const result = await temp.uwf(["--json"]);
    expect({ exitCode: result.exitCode, stdout: result.stdout }).toEqual({ exitCode: 2, stdout: "" });
    expect(errorResultSchema.parse(JSON.parse(result.stderr))).toEqual({
      error: { code: "usage", message: "no command given; `uwf --help` lists the commands", data: {} },
    });
    const group = await temp.uwf(["cas", "--json"]);
    expect(group.exitCode).toBe(2);
    expect(errorResultSchema.parse(JSON.parse(group.stderr)).error.message).toBe(
      "uwf cas needs a command: get, put, has, refs, walk, verify, gc, recover (`uwf cas --help`)",
    );
    const plain = await temp.uwf([]);
    expect(plain.exitCode).toBe(2);
    expect(plain.stderr).toContain("Usage: uwf [options] [command]");
  });
});

describe("uwf version", () => {
  it("prints uwf's version, Bun's and the store schema version", async () => {
    const result = await temp.uwf(["version", "--json"]);
    expect(versionResultSchema.parse(result.json())).toEqual({
      version: VERSION,
      bun: Bun.version,
      storeSchemaVersion: REF_SCHEMA_VERSION,
    });
    expect((await temp.uwf(["version"])).stdout).toBe(
      `uwf ${VERSION}\nbun ${Bun.version}\nstore schema ${REF_SCHEMA_VERSION}\n`,
    );
  });
});

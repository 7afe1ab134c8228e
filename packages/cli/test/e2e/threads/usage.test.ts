import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { join } from "node:path";
import { createTempHome, FIXTURES, type TempHome } from "../../helpers/temp-home.ts";

// uwf builds only the commander branch that argv names; these pin that usage, help and errors do not notice.

const TOP_LEVEL = ["init", "workflow", "start", "step", "run", "fork", "list", "show", "log", "read", "diff", "tree"];
const MORE = [
  "explore",
  "resume",
  "wait",
  "cancel",
  "delete",
  "thread",
  "worker",
  "cas",
  "store",
  "config",
  "setup",
  "compare",
  "eval",
  "queue",
  "ui",
  "schedule",
  "tick",
  "trace",
  "scenario",
  "replay",
  "mcp",
];

let temp: TempHome;
beforeAll(() => {
  temp = createTempHome();
});
afterAll(() => temp.cleanup());

describe("usage", () => {
  it("--help lists every command once, under the headings after the options", async () => {
    const help = await temp.uwf(["--help"]);
    expect(help.exitCode).toBe(0);
    const commands = help.stdout.split("\nRun threads:\n")[1]?.split("\nExamples:\n")[0] ?? "";
    const listed = [...commands.matchAll(/^ {2}([a-z]+)\b/gm)].map((match) => match[1] as string);
    expect(listed.toSorted()).toEqual([...TOP_LEVEL, ...MORE, "completion", "version", "help"].toSorted());
  });

  it("a command's --help shows its own options, also after global options and under `thread`", async () => {
    for (const args of [
      ["step", "--help"],
      ["--home", "step", "step", "--help"],
      ["thread", "step", "--help"],
    ]) {
      const help = await temp.uwf(args);
      expect(help.exitCode).toBe(0);
      expect(help.stdout).toContain("Usage: uwf");
      expect(help.stdout).toContain("--timeout <seconds>");
    }
  });

  it("`help COMMAND` shows that command's help", async () => {
    const help = await temp.uwf(["help", "fork"]);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain("--output <file>");
  });

  it("an unknown command is a usage error (exit 2) with a suggestion", async () => {
    const typo = await temp.uwf(["stpe", "01JD0000000000000000000001"]);
    expect(typo.exitCode).toBe(2);
    expect(typo.stderr).toContain("unknown command 'stpe'");
    expect(typo.stderr).toContain("step");
  });

  it("an unknown option of a command is a usage error naming it", async () => {
    const wrong = await temp.uwf(["list", "--colour"]);
    expect(wrong.exitCode).toBe(2);
    expect(wrong.stderr).toContain("unknown option '--colour'");
  });

  it("a whole number no date or counter can hold (cas gc --grace 1e20, -n 1e20) is a usage error, not an internal one", async () => {
    for (const args of [
      ["cas", "gc", "--grace", "1e20"],
      ["cas", "gc", "--grace", "4000000000"],
      ["step", "01JD0000000000000000000001", "-n", "1e20"],
    ]) {
      const result = await temp.uwf(args);
      expect({ args, exitCode: result.exitCode }).toEqual({ args, exitCode: 2 });
      expect(result.stderr).toStartWith(`error: option '`);
      expect(result.stderr).not.toContain("internal error");
    }
    const gc = await temp.uwf(["cas", "gc", "--grace", "1e20"]);
    expect(gc.stderr).toContain("expected a whole number of seconds from 0 to 3153600000 (100 years)");
  });

  it("finds the command after a global option that takes a value", async () => {
    const other = join(temp.work, "other-home");
    const added = await temp.uwf([
      "--home",
      other,
      "workflow",
      "add",
      join(FIXTURES, "workflows/linear.yaml"),
      "--json",
    ]);
    expect(added.exitCode).toBe(0);
    const listed = await temp.uwf(["--json", "--home", other, "workflow", "list"]);
    expect(listed.exitCode).toBe(0);
    expect(JSON.stringify(listed.json())).toContain("linear");
  });
});

import { describe, expect, it } from "bun:test";
import { Command } from "commander";
import { COMMAND_TABLE } from "./command-table.ts";
import { GLOBAL_OPTIONS } from "./global-options.ts";
import { parsePlainCommand } from "./parse-plain-command.ts";
import { registerCommands } from "./register-commands.ts";

/** What commander makes of `argv` with the pipeline's tree: the command's options (arguments included) and the globals. */
function parseWithCommander(argv: string[]): {
  name: string;
  options: Record<string, unknown>;
  globals: Record<string, unknown>;
} {
  const program = new Command("uwf").exitOverride().enablePositionalOptions(false);
  program.configureOutput({ writeErr: () => {}, writeOut: () => {} });
  for (const option of GLOBAL_OPTIONS) program.option(option.flags, option.description);
  registerCommands(program, () => async () => {});
  let parsed: { name: string; options: Record<string, unknown> } | undefined;
  for (const command of program.commands) {
    const entry = COMMAND_TABLE.find((candidate) => candidate.name === command.name());
    command.action(function (this: Command) {
      const options: Record<string, unknown> = { ...this.opts() };
      for (const [index, argument] of (entry && "arguments" in entry ? entry.arguments : []).entries())
        options[argument.key] = this.processedArgs[index];
      parsed = { name: command.name(), options };
    });
  }
  program.parse(argv, { from: "user" });
  if (parsed === undefined) throw new Error(`commander ran no command for ${argv.join(" ")}`);
  return { ...parsed, globals: program.opts<Record<string, unknown>>() };
}

describe("parsePlainCommand", () => {
  it.each([
    [["step", "01J9", "--agent", "scripted:/tmp/reply.json"]],
    [["step", "01J9", "01JA", "-", "--all", "--parallel", "2", "-n", "3", "--timeout", "1.5"]],
    [["--home", "/tmp/h", "step", "01J9", "--json", "--no-color", "-q", "-v"]],
    [["show", "01J9", "--jsonl"]],
    [["start", "review", "-p", "-", "--input", "a=1", "--input", "b=2", "--max-steps", "4"]],
    [["list", "--limit", "5", "--status", "active"]],
  ])("reads %p as commander does", (argv: string[]) => {
    const plain = parsePlainCommand(argv);
    const commander = parseWithCommander(argv);
    expect(plain?.entry.name).toBe(commander.name);
    expect(plain?.options).toEqual(commander.options);
    expect(plain?.globals).toEqual(commander.globals);
  });

  it.each([
    [["step", "01J9", "--agent=x"]],
    [["step", "01J9", "--bogus"]],
    [["step", "01J9", "-n", "0"]],
    [["step", "01J9", "-n3"]],
    [["step", "01J9", "--agent"]],
    [["step", "01J9", "--agent", "-x"]],
    [["step", "--", "01J9"]],
    [["step"]],
    [["step", "01J9", "--help"]],
    [["--agent", "a", "step", "01J9"]],
    [["show", "01J9", "01JA"]],
    [["workflow", "list"]],
    [["help", "step"]],
    [["--json"]],
    [[]],
  ])("leaves %p to commander", (argv: string[]) => {
    expect(parsePlainCommand(argv)).toBeUndefined();
  });
});

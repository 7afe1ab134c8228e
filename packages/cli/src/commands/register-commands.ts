import { type Command, Option } from "commander";
import type { RunCommand } from "../pipeline/command-outcome.ts";
import { COMMAND_TABLE } from "./command-table.ts";
import { HELP_TOPICS } from "./help-topics.ts";
import type { CommandEntry, CommandGroup } from "./table/define-command.ts";
import { isCommandGroup } from "./table/define-command.ts";
import { HELP_GROUPS, PROGRAM_EXAMPLES } from "./table/help-groups.ts";

/**
 * Registers the command table, or only the top-level command `name` when it names one. Building the
 * whole tree costs a few milliseconds of every start-up; `--help`, `help`, no command and unknown
 * commands (for commander's suggestions) still get all of it, in the table's order.
 */
export function registerCommands(program: Command, run: RunCommand, name?: string): void {
  // `uwf help step` shows another command's help, so help needs the whole tree.
  const only = name === undefined || name === "help" ? undefined : COMMAND_TABLE.find((entry) => entry.name === name);
  program.helpCommand(false);
  addExamples(program, PROGRAM_EXAMPLES);
  for (const entry of only === undefined ? inHelpOrder(COMMAND_TABLE) : [only]) {
    if (isCommandGroup(entry)) registerGroup(program, entry, run);
    else if (entry.name === "help") registerHelp(program, entry, run);
    else registerCommand(program, entry, run);
  }
}

/**
 * The entries in HELP_GROUPS' order (commander lists help groups in the order their first command was
 * added), then any it does not name (hidden ones), in the table's order.
 */
function inHelpOrder<Entry extends { name: string }>(entries: readonly Entry[]): Entry[] {
  const order = HELP_GROUPS.flatMap((group) => group.commands);
  const rank = (entry: Entry) => {
    const index = order.indexOf(entry.name);
    return index === -1 ? order.length : index;
  };
  return entries
    .map((entry, index) => ({ entry, index }))
    .sort((left, right) => rank(left.entry) - rank(right.entry) || left.index - right.index)
    .map(({ entry }) => entry);
}

/** The heading a command is listed under (`Run threads:`), if it has one. */
function helpHeading(name: string): string | undefined {
  return HELP_GROUPS.find((group) => group.commands.includes(name))?.heading;
}

function registerGroup(program: Command, group: CommandGroup, run: RunCommand): void {
  const parent = program.command(group.name).description(group.description);
  const heading = helpHeading(group.name);
  if (heading !== undefined) parent.helpGroup(heading);
  addExamples(parent, group.examples);
  // `uwf thread --help` groups its commands as the top level does; other groups are short lists.
  const grouped = group.commands.every((entry) => helpHeading(entry.name) !== undefined);
  for (const entry of grouped ? inHelpOrder(group.commands) : group.commands) {
    const command = registerCommand(parent, entry, run);
    if (grouped) command.helpGroup(helpHeading(entry.name) as string);
  }
}

function registerCommand(parent: Command, entry: CommandEntry, run: RunCommand): Command {
  const command = parent
    .command(entry.name, { hidden: entry.hidden === true, isDefault: entry.isDefault === true })
    .description(entry.description);
  const heading = parent.parent === null ? helpHeading(entry.name) : undefined;
  if (heading !== undefined) command.helpGroup(heading);
  for (const argument of entry.arguments) command.argument(argument.syntax);
  for (const spec of entry.options) {
    const option = new Option(spec.flags, spec.description);
    if (spec.parse !== undefined) option.argParser(spec.parse);
    if (spec.required === true) option.makeOptionMandatory();
    command.addOption(option);
  }
  addExamples(command, entry.examples);
  command.action(async function (this: Command) {
    const options: Record<string, unknown> = { ...this.opts() };
    entry.arguments.forEach((argument, index) => {
      options[argument.key] = this.processedArgs[index];
    });
    await run(async (context) => (await entry.load())(options, context))();
  });
  return command;
}

/**
 * `uwf help TOPIC` runs the topic command; `uwf help COMMAND…` (or plain `uwf help`) prints that
 * command's help, as `uwf COMMAND… --help` does.
 */
function registerHelp(program: Command, entry: CommandEntry, run: RunCommand): void {
  registerCommand(program, entry, run);
  const help = program.commands.find((command) => command.name() === entry.name) as Command;
  help.action(async (words: string[]) => {
    const isTopic = HELP_TOPICS.some((topic) => topic.name === words[0]);
    const target = isTopic ? undefined : findCommand(program, words);
    if (target !== undefined) return target.outputHelp();
    await run(async (context) => (await entry.load())({ words }, context))();
  });
}

function findCommand(program: Command, words: readonly string[]): Command | undefined {
  return words.reduce<Command | undefined>(
    (parent, word) => parent?.commands.find((command) => command.name() === word),
    program,
  );
}

function addExamples(command: Command, examples: readonly string[]): void {
  if (examples.length > 0)
    command.addHelpText("after", `\nExamples:\n${examples.map((line) => `  ${line}\n`).join("")}`);
}

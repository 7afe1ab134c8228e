import { COMMAND_TABLE } from "./command-table.ts";
import { GLOBAL_OPTIONS } from "./global-options.ts";
import type { CommandEntry, OptionEntry } from "./table/define-command.ts";
import { isCommandGroup } from "./table/define-command.ts";

/** A command line read without commander: the command, its options (arguments included), and the global flags. */
export interface PlainCommand {
  entry: CommandEntry;
  options: Record<string, unknown>;
  globals: Record<string, unknown>;
}

/**
 * Reads a plain command line of a top-level command from the command table, as commander would, so
 * that `uwf step THREAD --agent A` need not load commander (a few milliseconds of every step).
 * Anything else is left to commander, which prints help and usage errors: undefined for a group or
 * `help`, an unknown or abbreviated flag, `--flag=value`, joined short flags, `--`, a flag's value
 * that is missing or starts with a dash, a value its parser refuses, a missing required option, and
 * too few or too many arguments.
 */
export function parsePlainCommand(argv: readonly string[]): PlainCommand | undefined {
  const globals: Record<string, unknown> = {};
  for (const option of GLOBAL_OPTIONS) setDefault(globals, option);
  let entry: CommandEntry | undefined;
  const options: Record<string, unknown> = {};
  const positionals: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] as string;
    if (argument === "-" || !argument.startsWith("-")) {
      if (entry !== undefined) {
        positionals.push(argument);
        continue;
      }
      const named = COMMAND_TABLE.find((candidate) => candidate.name === argument);
      if (named === undefined || isCommandGroup(named) || named.name === "help") return undefined;
      entry = named;
      for (const option of entry.options) setDefault(options, option);
      continue;
    }
    const global = findOption(GLOBAL_OPTIONS, argument);
    const own = entry === undefined ? undefined : findOption(entry.options, argument);
    // Before the command's name only global flags; a flag both define is commander's to resolve.
    const option = global !== undefined && own !== undefined ? undefined : (global ?? own);
    if (option === undefined) return undefined;
    const target = option === global ? globals : options;
    if (!takesValue(option)) {
      target[option.key] = !option.flags.includes("--no-");
      continue;
    }
    const value = argv[++index];
    if (value === undefined || (value.startsWith("-") && value !== "-")) return undefined;
    try {
      target[option.key] = option.parse === undefined ? value : option.parse(value, target[option.key]);
    } catch {
      return undefined;
    }
  }
  if (entry === undefined) return undefined;
  if (entry.options.some((option) => option.required === true && options[option.key] === undefined)) return undefined;
  return fillArguments(entry, positionals, options) ? { entry, options, globals } : undefined;
}

/** commander's defaults: a `--no-x` flag makes x true until it is given. */
function setDefault(target: Record<string, unknown>, option: OptionEntry): void {
  if (option.flags.includes("--no-")) target[option.key] = true;
}

/** The option one of whose flags is exactly `argument`; only `<value>` and plain flags are read here. */
function findOption(options: readonly OptionEntry[], argument: string): OptionEntry | undefined {
  return options.find((option) => {
    if (option.flags.includes("[") || option.flags.includes("...")) return false;
    const flags = option.flags.split(/[ ,]+/).filter((word) => word.startsWith("-"));
    return flags.includes(argument);
  });
}

function takesValue(option: OptionEntry): boolean {
  return option.flags.includes("<");
}

/** Fills each argument's key as commander does (a variadic one gets an array); false when the count does not fit. */
function fillArguments(entry: CommandEntry, positionals: string[], options: Record<string, unknown>): boolean {
  let next = 0;
  for (const argument of entry.arguments) {
    const required = argument.syntax.startsWith("<");
    if (argument.syntax.endsWith("...>") || argument.syntax.endsWith("...]")) {
      const rest = positionals.slice(next);
      if (rest.length === 0) return false;
      options[argument.key] = rest;
      next = positionals.length;
      continue;
    }
    const value = positionals[next];
    if (value === undefined && required) return false;
    options[argument.key] = value;
    if (value !== undefined) next++;
  }
  return next === positionals.length;
}

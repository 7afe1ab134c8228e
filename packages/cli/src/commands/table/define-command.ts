import type { CommandContext } from "../../pipeline/command-context.ts";
import type { CommandOutcome } from "../../pipeline/command-outcome.ts";

/**
 * What a word on the command line completes to: thread ids or workflow names from the store, the
 * shell's files or directories, or a fixed list of words.
 */
export type Completion = "thread" | "workflow" | "file" | "directory" | "command" | readonly string[];

/** A positional argument, as help shows it (`<thread>`, `[file]`, `<address...>`), and the options key it fills. */
export interface ArgumentSpec<Options> {
  syntax: string;
  key: keyof Options & string;
  completes?: Completion;
}

/** One flag. commander names its value after the long flag in camelCase (`--max-steps` → `maxSteps`). */
export interface OptionSpec<Value> {
  /** `-n, --steps <n>`, `--all`, `--no-verify`. */
  flags: string;
  description: string;
  /** Turns the text into the value; a repeatable option is also given the values so far. */
  parse?: (text: string, previous: Value | undefined) => Value;
  required?: boolean;
  completes?: Completion;
}

/** A command's flags, keyed by the options key each fills: the keys and values are the command module's own types. */
export type OptionSpecs<Options> = { [Key in keyof Options]?: OptionSpec<NonNullable<Options[Key]>> };

export interface CommandSpec<Options, Result> {
  name: string;
  description: string;
  arguments?: ReadonlyArray<ArgumentSpec<NoInfer<Options>>>;
  options?: OptionSpecs<NoInfer<Options>>;
  /** Shown under `--help`: one to three command lines. */
  examples: readonly string[];
  /** The `@uwf/protocol` schema of its `--json` document, for `uwf help json`. */
  json?: string;
  hidden?: boolean;
  /** In a group: the command that runs when the group's first word names none of its commands (`uwf eval T` runs `eval run T`). */
  isDefault?: boolean;
  /** Imports the command's module, only when the command runs, and returns its function. */
  load(): Promise<(options: Options, context: CommandContext) => Promise<CommandOutcome<Result>>>;
}

/** A command as the pipeline, help and completion read it: its types checked by `defineCommand`, then set aside. */
export interface CommandEntry {
  name: string;
  description: string;
  arguments: ReadonlyArray<ArgumentSpec<Record<string, unknown>>>;
  options: ReadonlyArray<OptionEntry>;
  examples: readonly string[];
  json?: string;
  hidden?: boolean;
  isDefault?: boolean;
  load(): Promise<(options: Record<string, unknown>, context: CommandContext) => Promise<CommandOutcome<unknown>>>;
}

export interface OptionEntry extends OptionSpec<unknown> {
  key: string;
}

/** Commands under one name: `uwf workflow add`, `uwf cas gc`. */
export interface CommandGroup {
  name: string;
  description: string;
  commands: readonly CommandEntry[];
  examples: readonly string[];
}

/** Every command and group, in the order `uwf --help` lists them (COMMAND_TABLE). */
export type CommandTable = ReadonlyArray<CommandEntry | CommandGroup>;

export function isCommandGroup(entry: CommandEntry | CommandGroup): entry is CommandGroup {
  return "commands" in entry;
}

/**
 * A table entry for a command. The options type comes from the module `load` imports, so the flags and
 * arguments are checked against what the command takes, without importing the module at start-up.
 */
export function defineCommand<Options, Result>(spec: CommandSpec<Options, Result>): CommandEntry {
  const options = Object.entries(spec.options ?? {}).map(([key, option]) => ({
    ...(option as OptionSpec<unknown>),
    key,
  }));
  const erased = spec as unknown as CommandEntry;
  return { ...erased, arguments: erased.arguments ?? [], options };
}

/** For a command that takes nothing but its context (`uwf init`, `uwf cas verify`). */
export function withoutOptions<Result>(
  command: (context: CommandContext) => Promise<CommandOutcome<Result>>,
): (options: Record<string, never>, context: CommandContext) => Promise<CommandOutcome<Result>> {
  return (_options, context) => command(context);
}

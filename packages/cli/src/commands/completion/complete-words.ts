import { GLOBAL_OPTIONS } from "../global-options.ts";
import { HELP_TOPICS } from "../help-topics.ts";
import {
  type CommandEntry,
  type CommandGroup,
  type CommandTable,
  type Completion,
  isCommandGroup,
  type OptionEntry,
} from "../table/define-command.ts";

export interface Candidate {
  value: string;
  description: string | null;
}

/** What the word being typed can become, as far as the command table tells without the store. */
export interface WordCompletion {
  candidates: Candidate[];
  /** Values from the store the caller adds (thread ids, workflow names), matching `prefix`. */
  fromStore: "thread" | "workflow" | null;
  /** Whether the shell should also offer files or directories. */
  files: "file" | "directory" | null;
  prefix: string;
  /** `--home DIR` given on the line being completed, for the store lookups. */
  home: string | undefined;
}

/**
 * Completes the last of `words` (what follows `uwf` on the command line; the last is the word being
 * typed, possibly empty) by walking the command table: command and group names, flags, a flag's
 * value, or a positional argument.
 */
export function completeWords(words: readonly string[], table: CommandTable): WordCompletion {
  const prefix = words.at(-1) ?? "";
  let group: CommandGroup | undefined;
  let command: CommandEntry | undefined;
  let positionals: string[] = [];
  let pendingOption: OptionEntry | undefined;
  let afterSeparator = false;
  let home: string | undefined;
  for (const word of words.slice(0, -1)) {
    if (pendingOption !== undefined) {
      if (pendingOption.key === "home") home = word;
      pendingOption = undefined;
    } else if (!afterSeparator && word === "--") afterSeparator = true;
    else if (!afterSeparator && word.startsWith("-") && word !== "-") {
      const [flag, inlineValue] = splitFlag(word);
      const option = findOption(flag, command);
      if (option?.key === "home" && inlineValue !== undefined) home = inlineValue;
      if (option !== undefined && takesValue(option) && inlineValue === undefined) pendingOption = option;
    } else if (command !== undefined) positionals = [...positionals, word];
    else {
      const entry = (group?.commands ?? table).find((candidate) => candidate.name === word);
      if (entry === undefined) return nothing(prefix, home);
      if (isCommandGroup(entry)) group = entry;
      else command = entry;
    }
  }
  const base = { prefix, home };
  if (pendingOption !== undefined)
    return { ...base, ...fromCompletion(pendingOption.completes, prefix, positionals, table) };
  if (!afterSeparator && prefix.startsWith("-")) {
    const options = [...(command?.options ?? []), ...GLOBAL_OPTIONS];
    const flags = options.map((option) => ({ value: longFlag(option.flags), description: option.description }));
    flags.push({ value: "--help", description: "show help" });
    return { ...base, candidates: matching(flags, prefix), fromStore: null, files: null };
  }
  if (command === undefined) {
    const entries = (group?.commands ?? table).filter((entry) => !("hidden" in entry && entry.hidden === true));
    const names = entries.map((entry) => ({ value: entry.name, description: entry.description }));
    return { ...base, candidates: matching(names, prefix), fromStore: null, files: null };
  }
  const argument = command.arguments[Math.min(positionals.length, command.arguments.length - 1)];
  const variadic = argument?.syntax.endsWith("...>") === true || argument?.syntax.endsWith("...]") === true;
  if (argument === undefined || (!variadic && positionals.length >= command.arguments.length))
    return nothing(prefix, home);
  return { ...base, ...fromCompletion(argument.completes, prefix, positionals, table) };
}

function fromCompletion(
  completion: Completion | undefined,
  prefix: string,
  before: readonly string[],
  table: CommandTable,
): Pick<WordCompletion, "candidates" | "fromStore" | "files"> {
  const none = { candidates: [], fromStore: null, files: null };
  if (completion === undefined) return none;
  if (completion === "thread" || completion === "workflow") {
    // A workflow is also a YAML file.
    return { ...none, fromStore: completion, files: completion === "workflow" ? "file" : null };
  }
  if (completion === "file" || completion === "directory") return { ...none, files: completion };
  if (completion === "command") return { ...none, candidates: matching(helpCandidates(before, table), prefix) };
  return {
    ...none,
    candidates: matching(
      completion.map((value) => ({ value, description: null })),
      prefix,
    ),
  };
}

/** `uwf help WORD…`: topics and commands at first, then a group's commands. */
function helpCandidates(before: readonly string[], table: CommandTable): Candidate[] {
  const describe = (entry: { name: string; description: string }) => ({
    value: entry.name,
    description: entry.description,
  });
  if (before.length === 0) {
    const topics = HELP_TOPICS.map((topic) => ({ value: topic.name, description: topic.description }));
    return [...topics, ...table.filter((entry) => !("hidden" in entry && entry.hidden === true)).map(describe)];
  }
  const group = table.find((entry) => entry.name === before[0]);
  return before.length === 1 && group !== undefined && isCommandGroup(group) ? group.commands.map(describe) : [];
}

function nothing(prefix: string, home: string | undefined): WordCompletion {
  return { candidates: [], fromStore: null, files: null, prefix, home };
}

function matching(candidates: readonly Candidate[], prefix: string): Candidate[] {
  return candidates.filter((candidate) => candidate.value.startsWith(prefix));
}

/** `--home=DIR` → [`--home`, `DIR`]. */
function splitFlag(word: string): [string, string | undefined] {
  const equals = word.indexOf("=");
  return equals === -1 || !word.startsWith("--") ? [word, undefined] : [word.slice(0, equals), word.slice(equals + 1)];
}

function findOption(flag: string, command: CommandEntry | undefined): OptionEntry | undefined {
  const options = [...(command?.options ?? []), ...GLOBAL_OPTIONS];
  return options.find((option) => option.flags.split(/[ ,]+/).includes(flag));
}

function takesValue(option: OptionEntry): boolean {
  return /[<[]/.test(option.flags);
}

/** `-n, --steps <n>` → `--steps`. */
function longFlag(flags: string): string {
  return flags.split(/[ ,]+/).find((part) => part.startsWith("--")) ?? flags;
}

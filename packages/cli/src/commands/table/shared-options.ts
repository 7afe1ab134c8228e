import {
  collect,
  parseNonNegativeInteger,
  parsePositiveInteger,
  parsePositiveNumber,
  parseTimeoutSeconds,
} from "./option-value-parsers.ts";

/** Flags and arguments more than one command group takes. */
export const AGENT_OPTION = {
  flags: "--agent <alias>",
  description: "agent for roles that name none (an alias, or scripted:FILE)",
} as const;
export const TIMEOUT_OPTION = {
  flags: "--timeout <seconds>",
  description: "agent timeout, over a role's timeout: and the agent's own",
  parse: parseTimeoutSeconds,
} as const;
export const PROMPT_OPTION = { flags: "-p, --prompt <text>", description: "the task (- reads stdin)" } as const;
export const PROMPT_FILE_OPTION = {
  flags: "--prompt-file <file>",
  description: "the task from a file (- reads stdin)",
  completes: "file",
} as const;
export const START_OPTIONS = {
  prompt: PROMPT_OPTION,
  promptFile: PROMPT_FILE_OPTION,
  cwd: { flags: "--cwd <dir>", description: "where the thread's agents run (default: here)", completes: "directory" },
  input: {
    flags: "--input <key=value>",
    description: "a start input (repeatable; the value is read as YAML)",
    parse: collect,
  },
  inputs: {
    flags: "--inputs <file>",
    description: "start inputs from a YAML or JSON map (- reads stdin)",
    completes: "file",
  },
} as const;

/** A thread's limits (its budget), on `start`, `run`, `fork` and `resume`: each beats the workflow's and config's. */
export const BUDGET_OPTIONS = {
  maxSteps: {
    flags: "--max-steps <n>",
    description: "budget: the thread suspends (exit 20) before a step past its N-th (default 100; 0: no limit)",
    parse: parseNonNegativeInteger,
  },
  maxTokens: {
    flags: "--max-tokens <n>",
    description: "budget: no step starts once the thread's agents used N tokens",
    parse: parsePositiveInteger,
  },
  maxCost: {
    flags: "--max-cost <usd>",
    description: "budget: no step starts once the thread's agents cost this many US dollars",
    parse: parsePositiveNumber,
  },
} as const;

export const QUEUE_OPTION = {
  flags: "--queue",
  description: "leave the thread to `uwf worker` instead of stepping it here",
} as const;

export const WORKFLOW_ARGUMENT = { syntax: "<workflow>", key: "workflow", completes: "workflow" } as const;

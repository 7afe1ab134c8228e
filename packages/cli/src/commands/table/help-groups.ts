/**
 * The headings `uwf --help` (and `uwf thread --help`) lists the commands under, in this order; each
 * visible top-level command is in one. Within a heading, commands keep this order.
 */
export const HELP_GROUPS: ReadonlyArray<{ heading: string; commands: readonly string[] }> = [
  { heading: "Run threads:", commands: ["start", "run", "step", "resume", "cancel", "delete", "thread"] },
  { heading: "Inspect threads:", commands: ["list", "show", "log", "read", "tree", "ui", "trace", "mcp"] },
  {
    heading: "Experiment (fork, compare and judge):",
    commands: ["fork", "diff", "compare", "eval", "explore", "scenario", "replay"],
  },
  { heading: "Workers:", commands: ["worker", "queue", "wait", "schedule", "tick"] },
  { heading: "Store:", commands: ["cas", "store"] },
  { heading: "Set up:", commands: ["init", "setup", "config", "workflow", "completion", "version", "help"] },
];

/** Shown under `uwf --help`. */
export const PROGRAM_EXAMPLES: readonly string[] = [
  'uwf run review -p "Review the last commit"',
  "uwf list",
  "uwf help exit-codes",
];

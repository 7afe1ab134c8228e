import { CONFIG_COMMANDS, INIT_COMMAND } from "./table/config-commands.ts";
import type { CommandTable } from "./table/define-command.ts";
import { EVAL_GROUPS } from "./table/eval-commands.ts";
import { RECORDING_COMMANDS } from "./table/recording-commands.ts";
import { SCHEDULE_GROUP } from "./table/schedule-commands.ts";
import { mcpCommandEntry, uiCommandEntry } from "./table/serve-commands.ts";
import { shellCommands } from "./table/shell-commands.ts";
import { STORE_GROUPS } from "./table/store-commands.ts";
import { THREAD_COMMANDS, THREAD_GROUP } from "./table/thread-commands.ts";
import { TICK_COMMAND, WORKER_COMMAND } from "./table/worker-commands.ts";
import { WORKFLOW_GROUP } from "./table/workflow-commands.ts";

/**
 * Every command: its arguments, flags, description, examples and the module that runs it, one file per
 * group in table/. The pipeline (pipeline/run-cli.ts) builds commander's tree from this table, help shows
 * its examples (under table/help-groups.ts's headings), and completion walks it. A module is imported only
 * when its command runs; its options type checks the entry.
 */

/** The table itself, for the commands that run or walk its other commands (ui, mcp, help, completion). */
const commandTable = (): CommandTable => COMMAND_TABLE;

/** The top level, in this order. */
export const COMMAND_TABLE: CommandTable = [
  INIT_COMMAND,
  WORKFLOW_GROUP,
  ...THREAD_COMMANDS,
  THREAD_GROUP,
  WORKER_COMMAND,
  SCHEDULE_GROUP,
  TICK_COMMAND,
  uiCommandEntry(commandTable),
  ...EVAL_GROUPS,
  ...STORE_GROUPS,
  ...CONFIG_COMMANDS,
  ...shellCommands(commandTable),
  ...RECORDING_COMMANDS,
  mcpCommandEntry(commandTable),
];

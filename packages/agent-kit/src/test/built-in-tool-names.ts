/**
 * The built-in tools a built-in agent offers the model, in the order it offers them, written out for
 * the tests that check what a request or a run's tool list carries (MCP servers' tools come after).
 */
export const BUILT_IN_TOOL_NAMES: string[] = [
  "read_file",
  "write_file",
  "edit_file",
  "list_files",
  "search_files",
  "run_command",
];

import type { OptionEntry } from "./table/define-command.ts";

/** Flags every command takes (before or after the command's name). */
export const GLOBAL_OPTIONS: readonly OptionEntry[] = [
  {
    key: "home",
    flags: "--home <dir>",
    description: "uwf home (default: $UWF_HOME, the nearest .uwf/, or ~/.uwf)",
    completes: "directory",
  },
  {
    key: "store",
    flags: "--store <url>",
    description:
      "the store: postgres://USER:PASSWORD@HOST/DATABASE (default: $UWF_STORE, store: in config, or the home's files)",
  },
  { key: "json", flags: "--json", description: "print exactly one JSON document on stdout" },
  {
    key: "jsonl",
    flags: "--jsonl",
    description: "print NDJSON: run, step, resume, log --follow and worker print an event per line as they go",
  },
  { key: "color", flags: "--no-color", description: "no colours (also NO_COLOR; FORCE_COLOR and CI are honoured)" },
  { key: "quiet", flags: "-q, --quiet", description: "no warnings or progress on stderr" },
  { key: "verbose", flags: "-v, --verbose", description: "stream the agent's stderr" },
];

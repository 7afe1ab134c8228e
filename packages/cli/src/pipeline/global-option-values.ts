/** The global flags as read from the command line (`--home`, `--json`, `-q` …): see GLOBAL_OPTIONS. */
export interface GlobalOptionValues {
  home?: string;
  store?: string;
  json?: boolean;
  jsonl?: boolean;
  color: boolean;
  quiet?: boolean;
  verbose?: boolean;
}

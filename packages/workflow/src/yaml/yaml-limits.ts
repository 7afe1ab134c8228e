/**
 * How deep mappings and lists may nest in any YAML uwf reads: a workflow (with its includes), an
 * agent's reply, config.yaml, an `--inputs` file. Far above any honest document; far below what
 * overflows a parser's stack.
 */
export const MAX_YAML_NESTING = 64;

/**
 * Alias expansions a YAML document may make (counted as the yaml library counts them: an alias to
 * a node that holds aliases counts once for each). Far above honest reuse, far below a "billion
 * laughs" expansion.
 */
export const MAX_YAML_ALIASES = 100;

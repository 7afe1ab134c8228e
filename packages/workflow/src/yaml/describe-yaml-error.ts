import { MAX_YAML_NESTING } from "./yaml-limits.ts";

/**
 * A YAML parse error as one short line: the library's message without its position suffix or the
 * source excerpt `prettyErrors` adds. The library reports a document nested deep enough to overflow
 * its stack as "Maximum call stack size exceeded"; that is said as what it means.
 */
export function describeYamlError(error: { message: string; code?: string }): string {
  if (/Maximum call stack size exceeded/i.test(error.message)) return tooDeepMessage();
  const firstLine = error.message.split("\n")[0]?.replace(/ at line \d+, column \d+:?$/, "") ?? "";
  return firstLine === "" ? (error.code ?? "invalid YAML") : firstLine;
}

/** The one wording of the nesting limit, wherever YAML is read. */
export function tooDeepMessage(): string {
  return `mappings and lists nest deeper than ${MAX_YAML_NESTING} levels`;
}

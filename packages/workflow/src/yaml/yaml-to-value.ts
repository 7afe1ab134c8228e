import { messageOf } from "@uwf/protocol";
import type { Document } from "yaml";
import { describeYamlError, tooDeepMessage } from "./describe-yaml-error.ts";
import { findValueBoundsProblem } from "./find-value-bounds-problem.ts";
import { loadYaml } from "./load-yaml.ts";
import { MAX_YAML_ALIASES, MAX_YAML_NESTING } from "./yaml-limits.ts";

export interface YamlToValueOptions {
  /** The most characters the value may take as JSON once expanded; unlimited when left out. */
  maxSize?: number;
}

export type YamlLimitProblem = "too-deep" | "aliases" | "too-large" | "invalid";

export type YamlToValueResult =
  | { success: true; value: unknown }
  | {
      success: false;
      /** Which limit was broken ("invalid": the document cannot become a value, e.g. an alias to no anchor). */
      reason: YamlLimitProblem;
      problem: string;
      /** Where in the source, when one node is to blame. */
      offset: number | null;
    };

/**
 * A parsed YAML document (without errors) as a plain value, within the limits every YAML input of
 * uwf shares: at most MAX_YAML_NESTING levels of mappings and lists, checked on the syntax tree
 * before anything recurses over it and again on the value (aliases can deepen it, or make it
 * contain itself), and at most MAX_YAML_ALIASES alias expansions. Never throws.
 */
export function yamlToValue(document: Document, options: YamlToValueOptions = {}): YamlToValueResult {
  const deep = findTooDeepNode(document.contents);
  if (deep !== null) return { success: false, reason: "too-deep", problem: tooDeepMessage(), offset: deep.offset };
  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (error) {
    const message = messageOf(error);
    if (/excessive alias count/i.test(message)) {
      const problem = `aliases expand too much (more than ${MAX_YAML_ALIASES} alias expansions)`;
      return { success: false, reason: "aliases", problem, offset: null };
    }
    const problem = describeYamlError({ message });
    return { success: false, reason: problem === tooDeepMessage() ? "too-deep" : "invalid", problem, offset: null };
  }
  const bounds = findValueBoundsProblem(value, {
    maxNesting: MAX_YAML_NESTING,
    ...(options.maxSize === undefined ? {} : { maxSize: options.maxSize }),
  });
  if (bounds === "too-deep") {
    return { success: false, reason: "too-deep", problem: `${tooDeepMessage()} once expanded`, offset: null };
  }
  if (bounds === "too-large") {
    const problem = `over ${options.maxSize} characters once expanded`;
    return { success: false, reason: "too-large", problem, offset: null };
  }
  return { success: true, value };
}

/** The start offset of the first collection nested deeper than the limit, walking the tree without recursion. */
function findTooDeepNode(root: unknown): { offset: number | null } | null {
  const { isCollection, isPair } = loadYaml();
  const pending: Array<{ node: unknown; level: number }> = [{ node: root, level: 0 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { node, level } = next;
    if (isPair(node)) {
      pending.push({ node: node.value, level }, { node: node.key, level });
    } else if (isCollection(node)) {
      if (level + 1 > MAX_YAML_NESTING) return { offset: node.range?.[0] ?? null };
      for (const item of node.items) pending.push({ node: item, level: level + 1 });
    }
  }
  return null;
}

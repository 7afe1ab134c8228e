import { extname } from "node:path";
import { messageOf } from "@uwf/protocol";
import type { Document, LineCounter, ScalarTag } from "yaml";
import { describeYamlError, tooDeepMessage } from "../yaml/describe-yaml-error.ts";
import { findValueBoundsProblem } from "../yaml/find-value-bounds-problem.ts";
import { loadYaml } from "../yaml/load-yaml.ts";
import { parseWithWordLists } from "../yaml/parse-with-word-lists.ts";
import { MAX_YAML_NESTING } from "../yaml/yaml-limits.ts";
import { yamlToValue } from "../yaml/yaml-to-value.ts";
import { MAX_EXPANDED_WORKFLOW_SIZE, MAX_INCLUDE_DEPTH, MAX_INCLUDES } from "./workflow-limits.ts";

/** The text of an included file, or why it is refused: one clause, reported as `!include PATH: PROBLEM`. */
export type ReadInclude = (includePath: string) => IncludeRead;

export type IncludeRead = { success: true; value: string } | { success: false; problem: string };

export interface WorkflowYaml {
  document: Document;
  lineCounter: LineCounter;
  /**
   * Why an `!include` was refused because the workflow's includes, together, went over MAX_INCLUDES
   * or MAX_EXPANDED_WORKFLOW_SIZE (the error of that include, or of the include that led to it,
   * contains this text); null when they stayed within. Every later include is skipped unread.
   */
  includeLimit: string | null;
}

/** What the includes of one workflow have used so far, shared by the files it includes. */
interface IncludeBudget {
  count: number;
  bytes: number;
  refused: string | null;
}

/** The message of an `!include` skipped after the limit was reached: the first refusal says why. */
export const SKIPPED_INCLUDE = "skipped: the workflow's includes are over their limit";

/**
 * Parses workflow YAML with the hazards turned into errors: duplicate keys, and `!include`
 * resolved through `readInclude` (which alone decides what may be read), within a budget of
 * MAX_INCLUDES includes and MAX_EXPANDED_WORKFLOW_SIZE bytes read in all. Alias expansion and
 * nesting are limited later, in `yamlToValue`.
 */
export function parseWorkflowYaml(text: string, readInclude: ReadInclude | undefined): WorkflowYaml {
  const budget: IncludeBudget = { count: 0, bytes: Buffer.byteLength(text, "utf8"), refused: null };
  return { ...parseWithBudget(text, readInclude, 0, budget), includeLimit: budget.refused };
}

function parseWithBudget(
  text: string,
  readInclude: ReadInclude | undefined,
  depth: number,
  budget: IncludeBudget,
): Omit<WorkflowYaml, "includeLimit"> {
  const { LineCounter, parseDocument } = loadYaml();
  const parse = (source: string) => {
    const lineCounter = new LineCounter();
    const document = parseDocument(source, {
      lineCounter,
      uniqueKeys: true,
      prettyErrors: false,
      customTags: [includeTag(readInclude, depth, budget)],
    });
    return { document, lineCounter };
  };
  // Long enums are composed apart (the same document, much faster); when that does not apply, the includes
  // the attempt read are counted again by the full parse, so it starts from the budget as it was.
  const before = { ...budget };
  const fast = parseWithWordLists(text, parse);
  if (fast !== null) return fast;
  Object.assign(budget, before);
  return parse(text);
}

/** `!include PATH`: a .yaml/.yml or .json file is parsed and inserted; any other file as a string. */
function includeTag(readInclude: ReadInclude | undefined, depth: number, budget: IncludeBudget): ScalarTag {
  return {
    tag: "!include",
    resolve(includePath, onError) {
      const fail = (reason: string) => {
        onError(`!include ${includePath}: ${reason}`);
        return null;
      };
      const refuse = (reason: string) => {
        budget.refused = reason;
        return fail(reason);
      };
      if (readInclude === undefined) return fail("includes need a workflow loaded from a file");
      if (budget.refused !== null) return fail(SKIPPED_INCLUDE);
      if (depth >= MAX_INCLUDE_DEPTH) return fail(`includes nest deeper than ${MAX_INCLUDE_DEPTH} (a cycle?)`);
      budget.count++;
      if (budget.count > MAX_INCLUDES) return refuse(`a workflow may have at most ${MAX_INCLUDES} includes`);
      const read = readInclude(includePath);
      if (!read.success) return fail(read.problem);
      const text = read.value;
      budget.bytes += Buffer.byteLength(text, "utf8");
      if (budget.bytes > MAX_EXPANDED_WORKFLOW_SIZE) {
        return refuse(`the workflow with its includes is over ${MAX_EXPANDED_WORKFLOW_SIZE} bytes (8 MiB)`);
      }
      const extension = extname(includePath).toLowerCase();
      if (extension === ".json") {
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch (error) {
          return fail(`invalid JSON: ${describeYamlError({ message: messageOf(error) })}`);
        }
        // yaml copies an inserted list recursively: check the nesting before it does.
        if (findValueBoundsProblem(value, { maxNesting: MAX_YAML_NESTING }) !== null) return fail(tooDeepMessage());
        return value;
      }
      if (extension !== ".yaml" && extension !== ".yml") return text;
      const nested = parseWithBudget(text, readInclude, depth + 1, budget);
      const refused = budget.refused;
      if (refused !== null) {
        // The limit was reached inside this file: say through which include.
        return fail(nested.document.errors.find((error) => error.message.includes(refused))?.message ?? refused);
      }
      const first = nested.document.errors[0] ?? nested.document.warnings[0];
      if (first !== undefined) {
        const position = nested.lineCounter.linePos(first.pos[0]);
        return fail(`${position.line}:${position.col}: ${describeYamlError(first)}`);
      }
      const converted = yamlToValue(nested.document);
      if (!converted.success) {
        const position = converted.offset === null ? null : nested.lineCounter.linePos(converted.offset);
        return fail(`${position === null ? "" : `${position.line}:${position.col}: `}${converted.problem}`);
      }
      return converted.value;
    },
  };
}

import { extname } from "node:path";
import { type Document, LineCounter, parseDocument, type ScalarTag } from "yaml";
import { MAX_ALIAS_COUNT, MAX_INCLUDE_DEPTH } from "./workflow-limits.ts";

/** Returns the text of an included file, or throws an Error saying why it is refused. */
export type ReadInclude = (includePath: string) => string;

export interface WorkflowYaml {
  document: Document;
  lineCounter: LineCounter;
}

/**
 * Parses workflow YAML with the hazards turned into errors: duplicate keys, and `!include`
 * resolved through `readInclude` (which alone decides what may be read). Alias expansion is
 * limited later, in `toJS`, where yaml counts it.
 */
export function parseWorkflowYaml(text: string, readInclude: ReadInclude | undefined, depth = 0): WorkflowYaml {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, {
    lineCounter,
    uniqueKeys: true,
    prettyErrors: false,
    customTags: [includeTag(readInclude, depth)],
  });
  return { document, lineCounter };
}

/** `!include PATH`: a .yaml/.yml or .json file is parsed and inserted; any other file as a string. */
function includeTag(readInclude: ReadInclude | undefined, depth: number): ScalarTag {
  return {
    tag: "!include",
    resolve(includePath, onError) {
      const fail = (reason: string) => {
        onError(`!include ${includePath}: ${reason}`);
        return null;
      };
      if (readInclude === undefined) return fail("includes need a workflow loaded from a file");
      if (depth >= MAX_INCLUDE_DEPTH) return fail(`includes nest deeper than ${MAX_INCLUDE_DEPTH} (a cycle?)`);
      let text: string;
      try {
        text = readInclude(includePath);
      } catch (error) {
        return fail(error instanceof Error ? error.message : String(error));
      }
      const extension = extname(includePath).toLowerCase();
      if (extension === ".json") {
        try {
          return JSON.parse(text);
        } catch (error) {
          return fail(`invalid JSON: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      if (extension !== ".yaml" && extension !== ".yml") return text;
      const nested = parseWorkflowYaml(text, readInclude, depth + 1);
      const first = nested.document.errors[0] ?? nested.document.warnings[0];
      if (first !== undefined) {
        const position = nested.lineCounter.linePos(first.pos[0]);
        return fail(`${position.line}:${position.col}: ${first.message}`);
      }
      try {
        return nested.document.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
      } catch (error) {
        return fail(error instanceof Error ? error.message : String(error));
      }
    },
  };
}

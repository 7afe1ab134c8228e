import {
  anthropicAgentSpecSchema,
  type Config,
  commandAgentSpecSchema,
  configSchema,
  presetAgentSpecSchema,
  type SafeResult,
  scriptedAgentSpecSchema,
  shellAgentSpecSchema,
} from "@uwf/protocol";
import { describeYamlError, yamlToValue } from "@uwf/workflow";
import { type Document, isMap, isScalar, isSeq, LineCounter, parseDocument } from "yaml";
import { type ConfigProblem, InvalidConfigError } from "../errors/invalid-config-error.ts";

type PathSegment = string | number;
interface SchemaIssue {
  code: string;
  path: PropertyKey[];
  message: string;
  keys?: string[];
}

/** Parses the text of a `config.yaml`; an empty file is the default config. Problems name `file`, line and field. */
export function safeParseConfig(text: string, file: string): SafeResult<Config, InvalidConfigError> {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false });
  if (document.errors.length > 0) {
    const problems = document.errors.map((error): ConfigProblem => {
      const position = lineCounter.linePos(error.pos[0]);
      return {
        line: position.line,
        column: position.col,
        path: "",
        message: `invalid YAML: ${describeYamlError(error)}`,
      };
    });
    return { success: false, error: new InvalidConfigError(file, problems) };
  }
  const converted = yamlToValue(document);
  if (!converted.success) {
    const position = converted.offset === null ? null : lineCounter.linePos(converted.offset);
    const problem = {
      line: position?.line ?? null,
      column: position?.col ?? null,
      path: "",
      message: converted.problem,
    };
    return { success: false, error: new InvalidConfigError(file, [problem]) };
  }
  const value: unknown = converted.value ?? {};
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    const problem = { line: 1, column: 1, path: "", message: "expected a mapping of settings (key: value lines)" };
    return { success: false, error: new InvalidConfigError(file, [problem]) };
  }
  const parsed = configSchema.safeParse(value);
  if (parsed.success) return { success: true, value: parsed.data };
  const issues = parsed.error.issues.flatMap((issue) => splitUnknownKeys(explainIssue(issue as SchemaIssue, value)));
  const problems = issues.map((issue) => locateIssue(document, lineCounter, issue));
  return { success: false, error: new InvalidConfigError(file, problems) };
}

/** `safeParseConfig`, throwing `InvalidConfigError`. */
export function parseConfig(text: string, file: string): Config {
  const result = safeParseConfig(text, file);
  if (!result.success) throw result.error;
  return result.value;
}

const BUILTIN_SCHEMAS: Record<
  string,
  { safeParse(value: unknown): { success: boolean; error?: { issues: unknown[] } } }
> = {
  scripted: scriptedAgentSpecSchema,
  shell: shellAgentSpecSchema,
  anthropic: anthropicAgentSpecSchema,
};

/**
 * An agent spec is a union, whose own error says only "Invalid input". Pick the
 * member the entry means (by `builtin`, `preset` or `command`) and report its problems.
 */
function explainIssue(issue: SchemaIssue, config: object): SchemaIssue[] {
  const path = issue.path;
  if (issue.code !== "invalid_union" || path.length !== 2 || path[0] !== "agents") return [issue];
  const spec = (config as { agents?: Record<string, unknown> }).agents?.[String(path[1])];
  if (spec === null || typeof spec !== "object" || Array.isArray(spec)) {
    return [
      { ...issue, message: "expected an agent: { command, args } or { builtin: scripted | shell | anthropic, ... }" },
    ];
  }
  const builtin = (spec as { builtin?: unknown }).builtin;
  let member: { safeParse(value: unknown): { success: boolean; error?: { issues: unknown[] } } } =
    commandAgentSpecSchema;
  if (builtin !== undefined) {
    const schema = BUILTIN_SCHEMAS[String(builtin)];
    if (schema === undefined) {
      return [
        {
          code: "custom",
          path: [...path, "builtin"],
          message: `unknown built-in agent ${JSON.stringify(builtin)} (expected scripted, shell or anthropic)`,
        },
      ];
    }
    member = schema;
  } else if ("preset" in spec) member = presetAgentSpecSchema;
  const result = member.safeParse(spec);
  if (result.success || result.error === undefined) return [issue];
  return (result.error.issues as SchemaIssue[]).map((inner) => ({ ...inner, path: [...path, ...inner.path] }));
}

/** One problem per unknown key, located at the key itself. */
function splitUnknownKeys(issues: SchemaIssue[]): SchemaIssue[] {
  return issues.flatMap((issue) =>
    issue.code === "unrecognized_keys" && issue.keys !== undefined
      ? issue.keys.map((key) => ({ code: "custom", path: [...issue.path, key], message: "unknown key" }))
      : [issue],
  );
}

function locateIssue(document: Document, lineCounter: LineCounter, issue: SchemaIssue): ConfigProblem {
  const segments = issue.path.map((segment) => (typeof segment === "number" ? segment : String(segment)));
  const offset = findOffset(document, segments);
  const position = offset === null ? null : lineCounter.linePos(offset);
  return {
    line: position?.line ?? null,
    column: position?.col ?? null,
    path: formatPath(segments),
    message: plainMessage(issue.message),
  };
}

/** zod's "Invalid input: expected string, received undefined" → "missing (expected string)". */
function plainMessage(message: string): string {
  const missing = /^Invalid input: expected (.+), received undefined$/.exec(message);
  if (missing !== null) return `missing (expected ${missing[1]})`;
  return message.replace(/^Invalid input: /, "");
}

/** The offset of the deepest node along `path`: the key of the field when it exists, else its nearest parent. */
function findOffset(document: Document, path: PathSegment[]): number | null {
  let node: unknown = document.contents;
  let offset: number | null = rangeStart(node);
  for (const segment of path) {
    if (isMap(node)) {
      const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(segment));
      if (pair === undefined) return offset;
      offset = rangeStart(pair.key) ?? offset;
      node = pair.value;
    } else if (isSeq(node) && typeof segment === "number") {
      node = node.items[segment];
      offset = rangeStart(node) ?? offset;
    } else {
      return offset;
    }
  }
  return offset;
}

function rangeStart(node: unknown): number | null {
  const range = (node as { range?: [number, number, number] | null } | null | undefined)?.range;
  return range === undefined || range === null ? null : range[0];
}

function formatPath(segments: PathSegment[]): string {
  return segments
    .map((segment, index) => (typeof segment === "number" ? `[${segment}]` : index === 0 ? segment : `.${segment}`))
    .join("");
}

import { existsSync, statSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";
import {
  type BudgetLimits,
  configSchema,
  type EvalGate,
  type SuiteFile,
  suiteFileSchema,
  type WorkflowProblem,
} from "@uwf/protocol";
import {
  describeYamlError,
  type FieldPath,
  fieldPathAt,
  formatFieldPath,
  loadYaml,
  locateField,
  MAX_INPUT_FILE_BYTES,
  type SchemaIssue,
  safeReadBoundedFile,
  schemaIssuesToWorkflowIssues,
  type WorkflowIssue,
  yamlToValue,
} from "@uwf/workflow";
import type { Document, LineCounter } from "yaml";
import { InvalidSuiteError } from "../errors/invalid-suite-error.ts";
import type { Suite, SuiteAssertionItem, SuiteCase, SuiteVariant } from "./suite.ts";

/** `scripted:FILE` names the scripted agent and its scenario; FILE is relative to the suite. */
const SCRIPTED_PREFIX = "scripted:";

/**
 * Reads and checks a suite file (docs/suites.md): its YAML, the suite schema (protocol's
 * suiteFileSchema), and the rules between fields (cases or `from:`, a prompt per case, unique names,
 * files and folders that exist, variant config that config.yaml's schema takes). Relative paths are
 * resolved against the suite's folder and prompt files are read. Throws InvalidSuiteError with every
 * problem found, each at `FILE:LINE:COL` with its field.
 */
export function loadSuite(file: string): Suite {
  const path = resolve(file);
  const read = safeReadBoundedFile(path, { maxBytes: MAX_INPUT_FILE_BYTES });
  if (!read.success) {
    const message = read.reason === "too-large" ? `the file ${read.problem}` : `cannot read the file: ${read.problem}`;
    throw new InvalidSuiteError(path, [{ file: path, line: null, column: null, path: "", message }]);
  }
  return parseSuiteSource(read.value, path);
}

export interface ParseSuiteSourceOptions {
  /**
   * false: a `workflow:` must name a registered workflow (or its hash), never a file — a suite sent
   * over MCP, whose paths come from the request (DESIGN §7). Default true.
   */
  workflowFiles?: boolean;
  /**
   * With `workflowFiles: false`: the references the store was found not to hold, each refused with the
   * very problem a file is (a caller learns nothing of the files that exist).
   */
  unknownWorkflows?: ReadonlySet<string>;
}

/** The problem of a suite's `workflow:` (or judge) that names no stored workflow, when files are not read. */
export function notAStoredWorkflowProblem(reference: string): string {
  return `${reference}: no registered workflow or workflow hash of this name (files are not read here: uwf workflow add FILE registers one)`;
}

/** A suite's text, as if read from `file` (absolute): what loadSuite checks once it has read the file. */
export function parseSuiteSource(text: string, file: string, options: ParseSuiteSourceOptions = {}): Suite {
  const { LineCounter, parseDocument } = loadYaml();
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false });
  const place = new Placer(file, document, lineCounter);
  if (document.errors.length > 0) {
    throw new InvalidSuiteError(
      file,
      document.errors.map((error) => {
        const position = lineCounter.linePos(error.pos[0]);
        const path = fieldPathAt(document, error.pos[0]);
        const message =
          error.code === "DUPLICATE_KEY" && path.length > 0
            ? `duplicate key "${path.at(-1)}"`
            : describeYamlError(error);
        return { file, line: position.line, column: position.col, path: formatFieldPath(path), message };
      }),
    );
  }
  const converted = yamlToValue(document);
  if (!converted.success) {
    const position = converted.offset === null ? null : lineCounter.linePos(converted.offset);
    throw new InvalidSuiteError(file, [
      { file, line: position?.line ?? null, column: position?.col ?? null, path: "", message: converted.problem },
    ]);
  }
  const raw = converted.value;
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    const message = "a suite file is a YAML map with name, workflow, cases (or from) and assert";
    throw new InvalidSuiteError(file, [{ file, line: 1, column: 1, path: "", message }]);
  }
  const parsed = suiteFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = schemaIssuesToWorkflowIssues(parsed.error.issues as unknown as SchemaIssue[]);
    throw new InvalidSuiteError(file, place.all(issues));
  }
  const checker = new SuiteChecker(file, parsed.data, place, options.workflowFiles !== false);
  if (options.unknownWorkflows !== undefined) checker.unknownWorkflows = options.unknownWorkflows;
  const suite = checker.check(text);
  if (checker.issues.length > 0) throw new InvalidSuiteError(file, place.all(checker.issues));
  return suite;
}

/** Turns issues (field paths) into located problems, in source order. */
class Placer {
  readonly file: string;
  readonly document: Document;
  readonly lineCounter: LineCounter;

  constructor(file: string, document: Document, lineCounter: LineCounter) {
    this.file = file;
    this.document = document;
    this.lineCounter = lineCounter;
  }

  problem(issue: WorkflowIssue): WorkflowProblem {
    const location = locateField(this.document, this.lineCounter, issue.path, issue.pointAt ?? "value");
    return {
      file: this.file,
      line: location?.line ?? null,
      column: location?.column ?? null,
      path: formatFieldPath(issue.path),
      message: issue.message,
    };
  }

  all(issues: readonly WorkflowIssue[]): WorkflowProblem[] {
    return issues
      .map((issue) => this.problem(issue))
      .sort((left, right) => (left.line ?? 0) - (right.line ?? 0) || (left.column ?? 0) - (right.column ?? 0));
  }
}

/** The checks between fields, and the suite they build; `issues` holds what is wrong. */
class SuiteChecker {
  readonly issues: WorkflowIssue[] = [];
  readonly file: string;
  readonly dir: string;
  readonly data: SuiteFile;
  readonly place: Placer;
  readonly workflowFiles: boolean;
  unknownWorkflows: ReadonlySet<string> = new Set();

  constructor(file: string, data: SuiteFile, place: Placer, workflowFiles: boolean) {
    this.workflowFiles = workflowFiles;
    this.file = file;
    this.dir = dirname(file);
    this.data = data;
    this.place = place;
  }

  error(path: FieldPath, message: string, pointAt?: "key"): void {
    this.issues.push({ severity: "error", path, message, ...(pointAt === undefined ? {} : { pointAt }) });
  }

  check(text: string): Suite {
    const { data } = this;
    const forks = data.from !== undefined;
    if (forks && data.cases !== undefined) {
      this.error(["from"], "give `cases:` (threads to start) or `from:` (a thread or node to fork), not both", "key");
    } else if (!forks && data.cases === undefined) {
      this.error(["cases"], "missing `cases:` (threads to start) or `from:` (a thread or node to fork)");
    }
    if (forks) {
      if (data.workflow !== undefined)
        this.error(["workflow"], "a `from:` suite forks a thread, which keeps its own workflow", "key");
      if (data.repeat !== undefined)
        this.error(["repeat"], "with `from:`, `count:` gives the forks per variant; `repeat:` is for cases", "key");
    } else if (data.count !== undefined) {
      this.error(["count"], "`count:` gives the forks per variant of `from:`; cases repeat with `repeat:`", "key");
    }
    const variants = this.variants(forks);
    const everyVariantHasWorkflow = variants.every((variant) => variant.workflow !== null);
    if (!forks && data.workflow === undefined && !everyVariantHasWorkflow) {
      this.error(["workflow"], "missing required field (or a `workflow:` in every variant)");
    }
    const gate = data.gate;
    return {
      file: this.file,
      dir: this.dir,
      text,
      name: data.name,
      description: data.description ?? null,
      workflow: data.workflow === undefined ? null : this.workflowReference(["workflow"], data.workflow),
      repeat: data.repeat ?? 1,
      cases: forks ? [] : this.cases(),
      from: data.from ?? null,
      count: forks ? (data.count ?? 1) : 0,
      variants,
      budget: definedLimits(data.budget),
      maxCostUsd: data.max_cost_usd ?? null,
      assert: this.assertions(["assert"], data.assert),
      gate:
        gate === undefined
          ? null
          : dropUndefined<EvalGate>({
              minPassRate: gate.min_pass_rate,
              minCasePassRate: gate.min_case_pass_rate,
              passK: gate.pass_k,
              allowErrors: gate.allow_errors,
            }),
    };
  }

  cases(): SuiteCase[] {
    const seen = new Set<string>();
    return (this.data.cases ?? []).map((entry, index) => {
      const at = (...rest: (string | number)[]): FieldPath => ["cases", index, ...rest];
      if (seen.has(entry.name)) this.error(at("name"), `duplicate case name "${entry.name}"`);
      seen.add(entry.name);
      let prompt = entry.prompt ?? "";
      let promptFile: string | null = null;
      if (entry.prompt !== undefined && entry.promptFile !== undefined) {
        this.error(at("promptFile"), "give `prompt:` or `promptFile:`, not both", "key");
      } else if (entry.prompt === undefined && entry.promptFile === undefined) {
        this.error(at(), "missing `prompt:` (or `promptFile:`)");
      } else if (entry.promptFile !== undefined) {
        promptFile = resolve(this.dir, entry.promptFile);
        const read = safeReadBoundedFile(promptFile, { maxBytes: MAX_INPUT_FILE_BYTES });
        if (!read.success) this.error(at("promptFile"), `cannot read ${promptFile}: ${read.problem}`);
        else if (read.value.trim() === "") this.error(at("promptFile"), `${promptFile} is empty`);
        else prompt = read.value;
      }
      let fixture: string | null = null;
      if (entry.fixture !== undefined) {
        fixture = resolve(this.dir, entry.fixture);
        if (!isDirectory(fixture)) this.error(at("fixture"), `not a folder: ${fixture}`);
      }
      return {
        name: entry.name,
        prompt,
        promptFile,
        inputs: entry.inputs ?? {},
        fixture,
        assert: this.assertions(at("assert"), entry.assert),
      };
    });
  }

  variants(forks: boolean): SuiteVariant[] {
    const entries = this.data.variants ?? [{}];
    const seen = new Set<string>();
    return entries.map((entry, index) => {
      const at = (...rest: (string | number)[]): FieldPath => ["variants", index, ...rest];
      if (entry.name === undefined && entries.length > 1) {
        this.error(at(), "missing `name:` (every variant needs one when there are several)");
      } else if (entry.name !== undefined) {
        if (seen.has(entry.name)) this.error(at("name"), `duplicate variant name "${entry.name}"`);
        seen.add(entry.name);
      }
      if (forks && entry.workflow !== undefined) {
        this.error(at("workflow"), "a `from:` suite forks a thread, which keeps its own workflow", "key");
      }
      if (entry.config !== undefined) {
        const checked = configSchema.safeParse(entry.config);
        if (!checked.success) {
          const issues = schemaIssuesToWorkflowIssues(checked.error.issues as unknown as SchemaIssue[], at("config"));
          this.issues.push(...issues);
        }
      }
      return {
        name: entry.name ?? null,
        agent: entry.agent === undefined ? null : this.agentReference(at("agent"), entry.agent),
        model: entry.model ?? null,
        workflow: entry.workflow === undefined ? null : this.workflowReference(at("workflow"), entry.workflow),
        config: entry.config ?? null,
      };
    });
  }

  /** A workflow file (a `.yaml` name or a path) made absolute and checked to exist; a registered name as it is. */
  workflowReference(path: FieldPath, reference: string): string {
    const looksLikeFile = /\.(ya?ml)$/i.test(reference) || reference.includes("/");
    if (!this.workflowFiles && (looksLikeFile || this.unknownWorkflows.has(reference))) {
      this.error(path, notAStoredWorkflowProblem(reference));
      return reference;
    }
    if (!looksLikeFile) return reference;
    const absolute = resolve(this.dir, reference);
    if (!existsSync(absolute)) this.error(path, `no such workflow file: ${absolute}`);
    return absolute;
  }

  /** `scripted:FILE` with FILE made absolute and checked to exist; an alias as it is. */
  agentReference(path: FieldPath, agent: string): string {
    if (!agent.startsWith(SCRIPTED_PREFIX) || agent.length === SCRIPTED_PREFIX.length) return agent;
    const scenario = agent.slice(SCRIPTED_PREFIX.length);
    const absolute = isAbsolute(scenario) ? scenario : resolve(this.dir, scenario);
    if (!existsSync(absolute)) this.error(path, `no such scenario file: ${absolute}`);
    return `${SCRIPTED_PREFIX}${absolute}`;
  }

  assertions(path: FieldPath, items: readonly Record<string, unknown>[] | undefined): SuiteAssertionItem[] {
    return (items ?? []).map((value, index) => {
      const problem = this.place.problem({ severity: "error", path: [...path, index], message: "" });
      return { value, file: this.file, line: problem.line, column: problem.column, path: problem.path };
    });
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function definedLimits(input: SuiteFile["budget"]): Partial<BudgetLimits> {
  return dropUndefined<Partial<BudgetLimits>>({
    maxSteps: input?.max_steps,
    maxTokens: input?.max_tokens,
    maxCostUsd: input?.max_cost_usd,
  });
}

function dropUndefined<Value extends object>(value: { [Key in keyof Value]: Value[Key] | undefined }): Value {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Value;
}

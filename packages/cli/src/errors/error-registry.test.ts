import { describe, expect, it } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as agents from "@uwf/agent-kit";
import * as cas from "@uwf/cas";
import * as engine from "@uwf/engine";
import * as evaluation from "@uwf/eval";
import * as protocol from "@uwf/protocol";
import { type AnyUwfError, type ErrorCode, type Lease, type ThreadRecord, UwfError } from "@uwf/protocol";
import * as workflow from "@uwf/workflow";
import { EXIT_CODE_BY_ERROR_CODE } from "../exit-codes.ts";
import * as cliErrors from "./index.ts";

/** The error classes of the two packages that were agent-kit, by name. */
const workflowAndAgents = { ...workflow, ...agents };

/**
 * The error registry (ErrorDataByCode in @uwf/protocol) against the classes that raise its codes: every
 * error class of every package is walked, from the packages' entries and from a scan of the sources
 * (an error class a package does not export is found too).
 */

const ROOT = join(import.meta.dir, "..", "..", "..", "..");

/** Every registered code: EXIT_CODE_BY_ERROR_CODE's keys, which the types keep equal to ErrorCode. */
const REGISTERED = new Set(Object.keys(EXIT_CODE_BY_ERROR_CODE) as ErrorCode[]);

/**
 * The codes a class raises by computing them (a signal's, a machine's refusal, a lease lost or not
 * renewed), with the classes that raise each. Every other code is some class's `static code`.
 */
const DYNAMIC_CODES: Readonly<Partial<Record<ErrorCode, readonly string[]>>> = {
  interrupted: ["ForksInterruptedError", "SuiteInterruptedError"],
  "hung-up": ["InterruptedError", "ForksInterruptedError", "SuiteInterruptedError"],
  "lease-renewal-failed": ["LeaseLostError"],
  "no-space": ["EnvironmentError"],
  "read-only-file-system": ["EnvironmentError"],
  "permission-denied": ["EnvironmentError"],
  "io-error": ["EnvironmentError"],
  "too-many-open-files": ["EnvironmentError"],
};

type ErrorClass = (abstract new (...args: never[]) => UwfError) & { readonly code?: ErrorCode };

function isErrorClass(value: unknown): value is ErrorClass {
  return typeof value === "function" && value !== UwfError && UwfError.isInstance(value.prototype);
}

/** The error classes among a module's exports. */
function errorClassesOf(module: object): ErrorClass[] {
  return Object.values(module).filter(isErrorClass);
}

const CLI_ERRORS = cliErrors;

/**
 * The names of a module's error classes whose `static code` is not among the codes their base class was
 * given (`extends UwfError<C>`), so that their data would be typed by another code's.
 */
type MismatchedCodes<M> = {
  [K in keyof M]: M[K] extends { readonly code: infer S; prototype: { code: infer C } }
    ? [S] extends [C]
      ? never
      : K
    : never;
}[keyof M];

// `bun run typecheck` checks these: every class of the packages' entries and the CLI's, and a class made wrong on purpose.
const _staticCodesMatch:
  | MismatchedCodes<typeof protocol>
  | MismatchedCodes<typeof cas>
  | MismatchedCodes<typeof workflow>
  | MismatchedCodes<typeof agents>
  | MismatchedCodes<typeof engine>
  | MismatchedCodes<typeof evaluation>
  | MismatchedCodes<typeof CLI_ERRORS> extends never
  ? true
  : never = true;

class MismatchedCodeError extends UwfError<"node-not-found"> {
  static override readonly code = "no-reply" as const;

  constructor() {
    super("a class whose static code is not its code", { data: { address: "0000000000000" } });
  }
}
// @ts-expect-error MismatchedCodeError's static code is not the code its data is typed by.
const _mismatchCaught: MismatchedCodes<{ MismatchedCodeError: typeof MismatchedCodeError }> extends never
  ? true
  : never = true;

/** The files of the packages' sources (tests left out) that declare an error class, with the names of those classes. */
function scanSources(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const path of new Bun.Glob("packages/*/src/**/*.ts").scanSync({ cwd: ROOT })) {
    if (path.endsWith(".test.ts")) continue;
    const names = [...readFileSync(join(ROOT, path), "utf8").matchAll(/class (\w+) extends UwfError\b/g)].map(
      (match) => match[1] ?? "",
    );
    if (names.length > 0) found.set(path, names);
  }
  return found;
}

/** Every error class: the packages' entries, the CLI's errors, and every file the scan finds. */
async function walkErrorClasses(): Promise<{ classes: Map<string, ErrorClass>; scanned: Map<string, string[]> }> {
  const classes = new Map<string, ErrorClass>();
  const add = (found: ErrorClass[]) => {
    for (const type of found) {
      const known = classes.get(type.name);
      // Two classes of one name would be told apart by nothing the user sees.
      if (known !== undefined && known !== type) throw new Error(`two error classes are named ${type.name}`);
      classes.set(type.name, type);
    }
  };
  for (const entry of [protocol, cas, workflow, agents, engine, evaluation, CLI_ERRORS]) add(errorClassesOf(entry));
  const scanned = scanSources();
  for (const path of scanned.keys()) add(errorClassesOf(await import(join(ROOT, path))));
  return { classes, scanned };
}

const { classes, scanned } = await walkErrorClasses();

/** The classes that packages raise but do not export from their entry, as the scan found them. */
const SCANNED = Object.fromEntries(classes) as Record<
  | "RefStoreUnavailableError"
  | "StoreTooNewError"
  | "DotenvUnreadableError"
  | "IncompleteHistoryError"
  | "McpServerFailedError"
  | "NoWorkingDirectoryError"
  | "PathOutsideWorkspaceError"
  | "RefusedFileError"
  | "VariantNotFoundError",
  new (
    ...args: unknown[]
  ) => AnyUwfError
>;

const LEASE: Lease = {
  threadId: "T1",
  token: "token",
  pid: 42,
  host: "host",
  processStart: null,
  agentGroup: null,
  agentStart: null,
  acquiredAt: "2026-01-01T00:00:00.000Z",
  expiresAt: "2026-01-01T00:01:00.000Z",
  cancelRequestedAt: null,
  intendedHead: null,
};

const RECORD: ThreadRecord = {
  id: "T1",
  workflow: "review",
  workflowAddress: "0000000000000",
  start: "0000000000001",
  head: "0000000000002",
  status: "suspended",
  next: null,
  reason: "waits for an answer",
  stepCount: 1,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  forkedFrom: null,
  usage: protocol.ZERO_USAGE,
};

const PROBLEM = { file: "w.yaml", line: 1, column: 1, path: "roles", message: "is missing" };

/** One error of each class, as uwf raises it. A new class adds its sample here. */
const SAMPLES: Readonly<Record<string, () => AnyUwfError>> = {
  InternalError: () => new protocol.InternalError("a fault of uwf itself"),

  AddressPrefixNotFoundError: () => new cas.AddressPrefixNotFoundError("0AB4"),
  AmbiguousAddressError: () => new cas.AmbiguousAddressError("0AB4", ["0AB40000000000", "0AB41111111111"]),
  CorruptNodeError: () => new cas.CorruptNodeError("0000000000000", "its hash does not match"),
  EvalReportExistsError: () => new cas.EvalReportExistsError("R1"),

  AmbiguousEvalReportError: () => new evaluation.AmbiguousEvalReportError("01JB", ["01JB0", "01JB1"]),
  EvalErroredError: () => new evaluation.EvalErroredError("01JB", 2, 1, "01J9: the scorer exited 1"),
  EvalGateFailedError: () =>
    new evaluation.EvalGateFailedError("01JB", [
      { check: "min-pass-rate", held: false, detail: "pass rate 0.50 < 0.80" },
    ]),
  EvalReportNotFoundError: () => new evaluation.EvalReportNotFoundError("01JB"),
  NothingToEvaluateError: () => new evaluation.NothingToEvaluateError("nothing to evaluate"),
  GcRefusedError: () => cas.GcRefusedError.unrecordedHeads(1, 2),
  InvalidAddressError: () => new cas.InvalidAddressError("not-an-address"),
  InvalidJsonValueError: () => new cas.InvalidJsonValueError("$.value", "NaN"),
  InvalidRecordError: () => new cas.InvalidRecordError("thread record", ["id is empty"]),
  InvalidStoreUrlError: () => new cas.InvalidStoreUrlError("ftp://x", "not a store URL"),
  NodeNotFoundError: () => new cas.NodeNotFoundError("0000000000000"),
  RefStoreBusyError: () => new cas.RefStoreBusyError("refs.db", "SQLITE_BUSY"),
  RefStoreDamagedError: () => new cas.RefStoreDamagedError("refs.db", "not a database"),
  RefStoreUnavailableError: () => new SCANNED.RefStoreUnavailableError("refs.db", "SQLITE_CANTOPEN", "no folder"),
  StoreRefusedError: () => new cas.StoreRefusedError("postgres://x", "28P01", "password authentication failed"),
  StoreTooNewError: () => new SCANNED.StoreTooNewError("refs.db", 9, 8),
  StoreUnreachableError: () => new cas.StoreUnreachableError("postgres://x", "connection refused"),
  ThreadExistsError: () => new cas.ThreadExistsError("T1"),
  ScheduleExistsError: () => new cas.ScheduleExistsError("nightly"),

  AgentUnavailableError: () => new workflowAndAgents.AgentUnavailableError("gpt", "model"),
  ConditionFailedError: () => new workflowAndAgents.ConditionFailedError("$.x > 1", "x is not a number", "T2001"),
  ConditionTimeoutError: () => new workflowAndAgents.ConditionTimeoutError("$.x > 1", 100),
  DotenvUnreadableError: () => new SCANNED.DotenvUnreadableError(".env", "permission denied", null),
  EdgePromptError: () => new workflowAndAgents.EdgePromptError("draft", "review", "renders to nothing"),
  FanOutError: () =>
    new workflowAndAgents.FanOutError("splitter", 0, "foreach", null, '"files" must give a list, but gave an object'),
  IncompleteHistoryError: () => new SCANNED.IncompleteHistoryError(2, "draft"),
  InvalidConfigError: () => new workflowAndAgents.InvalidConfigError("config.yaml", [{ ...PROBLEM, path: "agents" }]),
  InvalidInputsError: () => new workflowAndAgents.InvalidInputsError("review", "topic is missing"),
  InvalidOutputSchemaError: () => new workflowAndAgents.InvalidOutputSchemaError("type must be a string"),
  InvalidReplyError: () => new workflowAndAgents.InvalidReplyError("no frontmatter", "the reply"),
  InvalidScenarioError: () => new workflowAndAgents.InvalidScenarioError("scenario.yaml", "not YAML"),
  InvalidWorkflowError: () => new workflowAndAgents.InvalidWorkflowError("w.yaml", [PROBLEM]),
  NoAgentError: () => new workflowAndAgents.NoAgentError("review", "draft"),
  NoResumeEdgeError: () => new workflowAndAgents.NoResumeEdgeError("review"),
  NoTransitionError: () =>
    new workflowAndAgents.NoTransitionError("draft", [{ role: "review", condition: null, status: "ok" }], "no"),
  McpServerFailedError: () => new SCANNED.McpServerFailedError("fs", "env.TOKEN", `env TOKEN: \${TOKEN} is not set`),
  NoWorkingDirectoryError: () => new SCANNED.NoWorkingDirectoryError("/gone"),
  PathOutsideWorkspaceError: () => new SCANNED.PathOutsideWorkspaceError("/etc/passwd", "/work"),
  RefusedFileError: () => new SCANNED.RefusedFileError(".env", "holds secrets"),
  VariantNotFoundError: () => new SCANNED.VariantNotFoundError("v3", ["v1", "v2"]),
  UnknownAgentError: () => new workflowAndAgents.UnknownAgentError("gpt", "--agent", ["claude"]),
  UnknownProviderError: () => new workflowAndAgents.UnknownProviderError("acme", "acme/model", []),
  UnknownRoleError: () => new workflowAndAgents.UnknownRoleError("review", "judge"),

  InvalidAssertionError: () =>
    new evaluation.InvalidAssertionError({ assertion: "approved", problem: "the expression does not compile" }),

  AgentFailedError: () => new engine.AgentFailedError("T1", "draft", "exit 1", "0000000000003"),
  AmbiguousThreadError: () => new engine.AmbiguousThreadError("T", ["T1", "T2"]),
  BrokenChainError: () => new engine.BrokenChainError("0000000000002"),
  BranchFailedError: () =>
    new engine.BranchFailedError(
      {
        id: "T1",
        workflow: "review",
        workflowAddress: "0000000000001",
        start: "0000000000001",
        head: "0000000000002",
        status: "failed",
        next: "synthesizer",
        reason: null,
        stepCount: 1,
        createdAt: "2026-01-01T00:00:00.000Z",
        updatedAt: "2026-01-01T00:00:00.000Z",
        forkedFrom: null,
        usage: protocol.ZERO_USAGE,
      },
      { key: "security", thread: "T2", status: "failed" },
    ),
  BudgetExceededError: () => new engine.BudgetExceededError("T1", "maxSteps", 1, { steps: 1, costUsd: 0, tokens: 0 }),
  CancelPendingError: () => new engine.CancelPendingError("T1", LEASE, 5000),
  EnvironmentError: () => {
    const failure = Object.assign(new Error("ENOSPC"), { code: "ENOSPC", syscall: "write", path: "/x" });
    return engine.asEnvironmentError(failure) ?? new protocol.InternalError("not an environment error");
  },
  HeadConflictError: () => new engine.HeadConflictError("T1", "0000000000002", "0000000000004"),
  InterruptedError: () => new engine.InterruptedError("SIGINT", null),
  LeaseLostError: () => new engine.LeaseLostError("T1", "taken over", { takenOver: true }),
  NoReplyToReplaceError: () => new engine.NoReplyToReplaceError("0000000000001"),
  NodeNotOnThreadError: () => new engine.NodeNotOnThreadError("0000000000002", "T1"),
  NotAThreadNodeError: () => new engine.NotAThreadNodeError("0000000000002", "text"),
  NotAWorkflowError: () => new engine.NotAWorkflowError("0000000000002"),
  InvalidAnswerError: () =>
    new engine.InvalidAnswerError("T1", "gate", "approved", 'field "approved": expected boolean, got string "yes"'),
  ResumeMismatchError: () => new engine.ResumeMismatchError("T1", { needs: "answer", role: "draft" }),
  SuspendTimeoutError: () => new engine.SuspendTimeoutError("T1", "draft", "24h", "2026-01-02T00:00:00.000Z"),
  ThreadAlreadyEndedError: () => new engine.ThreadAlreadyEndedError("T1", "0000000000002"),
  ThreadBusyError: () => new engine.ThreadBusyError("T1", LEASE, new Date("2026-01-01T00:00:30.000Z")),
  ThreadCancelledError: () => new engine.ThreadCancelledError("T1"),
  ThreadEndedError: () => new engine.ThreadEndedError("T1", "0000000000002"),
  ThreadFailedError: () => new engine.ThreadFailedError({ ...RECORD, status: "failed", reason: null }),
  ThreadNotFoundError: () => new engine.ThreadNotFoundError("T9"),
  ThreadNotResumableError: () => new engine.ThreadNotResumableError("T1", "active"),
  ThreadStrandedError: () => new engine.ThreadStrandedError("T1", "0000000000002", "draft", "no edge holds"),
  ThreadRecordBehindError: () => new engine.ThreadRecordBehindError("T1", "0000000000002", 2, "0000000000003", 3),
  ThreadSuspendedError: () => new engine.ThreadSuspendedError(RECORD),
  UnexpectedNodeKindError: () => new engine.UnexpectedNodeKindError("0000000000002", "a workflow", "text"),
  UnroutableReplyError: () => new engine.UnroutableReplyError("reply.md", "draft", "no edge holds"),
  WorkflowNotFoundError: () => new engine.WorkflowNotFoundError("review", { cwd: "/work" }),
  ScheduleNotFoundError: () => new engine.ScheduleNotFoundError("nightly", ["weekly"]),
  InvalidScheduleError: () =>
    new engine.InvalidScheduleError("nightly", "--cron", '"61 * * * *" is no cron expression'),

  InvalidSuiteError: () => new evaluation.InvalidSuiteError("suite.yaml", [{ ...PROBLEM, file: "suite.yaml" }]),
  SuiteNotQueueableError: () => new evaluation.SuiteNotQueueableError("suite.yaml", ["baseline"]),
  WrongReportKindError: () => new evaluation.WrongReportKindError("01JB", "explore-report/1", "eval-report/1"),

  ClaudeCodeUnavailableError: () => new cliErrors.ClaudeCodeUnavailableError("claude", "not found"),
  ConfigKeyNotSetError: () => new cliErrors.ConfigKeyNotSetError("defaultAgent", "config.yaml"),
  ForksInterruptedError: () => new cliErrors.ForksInterruptedError("SIGHUP", 1, 3),
  SuiteInterruptedError: () => new cliErrors.SuiteInterruptedError("SIGINT", "01JB0000000000000000000000", 2),
  InputFileError: () => new cliErrors.InputFileError("--output", "reply.md", "no such file"),
  ListenFailedError: () => new cliErrors.ListenFailedError("127.0.0.1", 7323, "the port is in use"),
  ModelAccessError: () => new cliErrors.ModelAccessError("claude", "401 unauthorized"),
  NoReplyError: () => new cliErrors.NoReplyError("0000000000003"),
  SetupCancelledError: () => new cliErrors.SetupCancelledError(),
  StdoutClosedError: () => new cliErrors.StdoutClosedError(new Error("EPIPE")),
  UsageError: () => new cliErrors.UsageError("--cwd /gone: not a directory", { cwd: "/gone" }),
  WaitTimeoutError: () => new cliErrors.WaitTimeoutError(5, ["T1"]),
  TraceExportFailedError: () =>
    new cliErrors.TraceExportFailedError("http://127.0.0.1:4318/v1/traces", 6, "connect ECONNREFUSED 127.0.0.1:4318"),
  ScenarioNotExportableError: () =>
    new engine.ScenarioNotExportableError(
      "01J9AAAAAAAAAAAAAAAAAAAAAA",
      "step 3 records a suspension that timed out unanswered",
    ),
  WorkflowMismatchError: () =>
    new engine.WorkflowMismatchError({
      workflow: "review",
      workflowAddress: "0000000000004",
      node: "0000000000005",
      step: 2,
      role: "writer",
      problem: "the node's role writer is not one of its roles",
    }),
};

describe("the error registry", () => {
  it("finds every error class the sources declare, exported from its file", () => {
    for (const [path, names] of scanned) {
      for (const name of names) expect({ path, name, found: classes.has(name) }).toEqual({ path, name, found: true });
    }
    // And every class walked is one the scan found: none is declared where the scan does not look.
    expect([...scanned.values()].flat().sort()).toEqual([...classes.keys()].sort());
  });

  it("gives every class a registered static code, or lists the codes it computes", () => {
    const dynamicClasses = new Set(Object.values(DYNAMIC_CODES).flat());
    for (const [name, type] of classes) {
      if (type.code === undefined) expect({ name, dynamic: dynamicClasses.has(name) }).toEqual({ name, dynamic: true });
      else expect({ name, registered: REGISTERED.has(type.code) }).toEqual({ name, registered: true });
    }
    for (const [code, raisers] of Object.entries(DYNAMIC_CODES)) {
      expect({ code, registered: REGISTERED.has(code as ErrorCode) }).toEqual({ code, registered: true });
      for (const name of raisers ?? [])
        expect({ code, name, found: classes.has(name) }).toEqual({ code, name, found: true });
    }
  });

  it("has every registered code raised by some class or listed as computed", () => {
    const raised = new Set<string>(Object.keys(DYNAMIC_CODES));
    for (const type of classes.values()) if (type.code !== undefined) raised.add(type.code);
    expect([...REGISTERED].filter((code) => !raised.has(code))).toEqual([]);
  });

  it("has a sample of every class, and only of those", () => {
    expect(Object.keys(SAMPLES).sort()).toEqual([...classes.keys()].sort());
  });

  for (const [name, sample] of Object.entries(SAMPLES)) {
    it(`${name}: its name, code, JSON and brand`, () => {
      const error = sample();
      const type = classes.get(name);
      expect(error.constructor).toBe(type as unknown as typeof error.constructor);
      expect(error.name).toBe(name);
      expect(error).toBeInstanceOf(Error);
      if (type?.code !== undefined) expect(error.code).toBe(type.code);
      expect(REGISTERED.has(error.code)).toBe(true);
      expect(error.toJSON()).toEqual({ code: error.code, message: error.message, data: error.data });
      expect(Object.keys(error.toJSON()).sort()).toEqual(["code", "data", "message"]);
      expect(JSON.parse(JSON.stringify(error))).toEqual(JSON.parse(JSON.stringify(error.toJSON())));
      expect(UwfError.isInstance(error)).toBe(true);
      expect(protocol.isUwfError(error)).toBe(true);
      expect(UwfError.isInstance(Object.assign(new Error(error.message), error.toJSON()))).toBe(false);
      expect(UwfError.isInstance({ name: error.name, ...error.toJSON() })).toBe(false);
    });
  }

  it("tells a plain Error from a UwfError", () => {
    expect(UwfError.isInstance(new Error("plain"))).toBe(false);
  });
});

import { describe, expect, it } from "bun:test";
import { ScheduleExistsError } from "@uwf/cas";
import { sampleThreadRecord } from "@uwf/cas/test";
import {
  AgentFailedError,
  BudgetExceededError,
  ResumeMismatchError,
  ThreadEndedError,
  ThreadNotFoundError,
  ThreadStrandedError,
  ThreadSuspendedError,
  WorkflowNotFoundError,
} from "@uwf/engine";
import { describeError } from "./describe-error.ts";
import { UsageError } from "./errors/usage-error.ts";
import { hintFor, messageWithHint } from "./hint-for.ts";

const THREAD = sampleThreadRecord().id;

describe("hintFor", () => {
  it("adds the `uwf …` command that goes on to an engine error whose message has none", () => {
    const notFound = new ThreadNotFoundError("8ZZ");
    expect(notFound.message).toBe('no thread "8ZZ"');
    expect(messageWithHint(notFound)).toBe('no thread "8ZZ" (see `uwf list`)');
    expect(messageWithHint(new ThreadEndedError(THREAD, "2SPNY716211N9"))).toBe(
      `thread ${THREAD} has ended; nothing to do (\`uwf resume\` continues it if its workflow allows)`,
    );
    expect(hintFor(new AgentFailedError(THREAD, "writer", "exit 3", "191B06QRP5RG9"))).toBe(
      "; see `uwf show 191B06QRP5RG9 --reply`",
    );
    const stranded = new ThreadStrandedError(THREAD, "191B06QRP5RG9", "writer", "no edge holds");
    expect(hintFor(stranded)).toContain("`uwf fork 191B06QRP5RG9 --output FILE`");
    expect(hintFor(stranded)).toContain(`\`uwf cancel ${THREAD}\``);
    expect(messageWithHint(new ScheduleExistsError("nightly"))).toBe(
      "schedule nightly already exists (`uwf schedule show nightly`; `uwf schedule rm nightly` first to replace it)",
    );
  });

  it("tells a role's suspension from the budget's by the error's data", () => {
    const byRole = sampleThreadRecord({ status: "suspended", reason: "which file?" });
    expect(messageWithHint(new ThreadSuspendedError(byRole))).toBe(
      `thread ${THREAD} is suspended: which file? — answer with \`uwf resume ${THREAD} -p "..."\``,
    );
    // A role that declares answer: takes typed fields, and the hint says so.
    expect(hintFor(new ThreadSuspendedError(byRole, "fields"))).toBe(
      ` — answer with \`uwf resume ${THREAD} --answer FIELDS\` (\`uwf show ${THREAD}\` lists them)`,
    );
    const byBudget = sampleThreadRecord({
      status: "suspended",
      reason: "budget",
      stepCount: 2,
      budget: { maxSteps: 2, maxTokens: null, maxCostUsd: null, exceeded: "maxSteps" },
    });
    expect(hintFor(new ThreadSuspendedError(byBudget))).toBe(` — raise it with \`uwf resume ${THREAD} --max-steps N\``);
    const spent = { steps: 2, tokens: 0, costUsd: 0 };
    expect(hintFor(new BudgetExceededError(THREAD, "maxCostUsd", 0.5, spent))).toBe(
      ` — raise the limit above that: \`uwf resume ${THREAD} --max-cost USD\``,
    );
  });

  it("says what a resume needed, and adds nothing to the CLI's own usage errors", () => {
    expect(hintFor(new ResumeMismatchError(THREAD, { needs: "prompt" }))).toBe(
      ": continuing it takes a prompt, -p PROMPT",
    );
    expect(hintFor(new ResumeMismatchError(THREAD, { needs: "answer", role: "writer" }))).toBe(
      ": give it with -p ANSWER (a raised limit alone does not answer it)",
    );
    expect(hintFor(new ResumeMismatchError(THREAD, { needs: "raised-limit", limit: "maxTokens" }))).toBe(
      `: raise the limit with \`uwf resume ${THREAD} --max-tokens ...\` and no -p`,
    );
    expect(hintFor(new UsageError("give - once: it reads stdin"))).toBe("");
    expect(hintFor(new WorkflowNotFoundError("x.yaml", { file: "/w/x.yaml" }))).toBe("");
    expect(hintFor(new WorkflowNotFoundError("review", { cwd: "/w" }))).toBe(" (see `uwf workflow list`)");
  });

  it("is what --json and step events show as the message", () => {
    expect(describeError(new ThreadNotFoundError("8ZZ"))).toEqual({
      code: "thread-not-found",
      message: 'no thread "8ZZ" (see `uwf list`)',
      data: { thread: "8ZZ", candidates: [] },
    });
  });
});

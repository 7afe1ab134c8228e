import { BUDGET_LIMIT_NAMES, type ErrorCode, type ErrorDataByCode } from "@uwf/protocol";
import { raiseLimitHint } from "./format/thread/format-budget.ts";

/** A hint from the data of an error of code C, or null when this error of the code has none. */
type Hint<C extends ErrorCode> = (data: ErrorDataByCode[C]) => string | null;

/** An error, or an error as data, whose data has the type its code registers. */
interface CodedError<C extends ErrorCode> {
  code: C;
  data: ErrorDataByCode[C];
}

/**
 * What the CLI adds to an error's message: the `uwf …` command that goes on from there. The engine's
 * errors say what happened and carry no CLI wording; each code's hint here is built from the error's
 * data, and is appended to the message wherever it is shown (stderr, `--json`, step events).
 */
const HINTS: { readonly [C in ErrorCode]?: Hint<C> } = {
  "thread-not-found": () => " (see `uwf list`)",
  "eval-report-not-found": () => " (see `uwf eval list`)",
  "schedule-exists": (data) =>
    ` (\`uwf schedule show ${text(data.schedule)}\`; \`uwf schedule rm ${text(data.schedule)}\` first to replace it)`,
  "eval-errored": (data) =>
    ` — the report is stored: \`uwf eval show ${text(data.report)}\`; --allow-errors counts such samples as failing`,
  "eval-gate-failed": (data) => ` — the report is stored: \`uwf eval show ${text(data.report)}\``,
  "workflow-not-found": (data) => ("workflow" in data ? " (see `uwf workflow list`)" : null),
  "agent-failed": (data) => `; see \`uwf show ${text(data.run)} --reply\``,
  "thread-ended": () => " (`uwf resume` continues it if its workflow allows)",
  "thread-cancelled": () => " (fork it to continue)",
  "thread-failed": (data) =>
    data.failure?.code === "suspend-timeout"
      ? ` — it still takes a late answer: \`uwf resume ${text(data.thread)} -p "..."\``
      : ` — try its step again with \`uwf step ${text(data.thread)}\``,
  "suspend-timeout": (data) => ` — it still takes a late answer: \`uwf resume ${text(data.thread)} -p "..."\``,
  "not-resumable": (data) => `: use \`uwf step ${text(data.thread)}\``,
  "thread-suspended": (data) =>
    data.limit !== null && data.limit !== undefined
      ? ` — raise it with \`${raiseLimitHint(text(data.thread), data.limit)}\``
      : data.answer === "fields"
        ? ` — answer with \`uwf resume ${text(data.thread)} --answer FIELDS\` (\`uwf show ${text(data.thread)}\` lists them)`
        : ` — answer with \`uwf resume ${text(data.thread)} -p "..."\``,
  "budget-exceeded": (data) => ` — raise the limit above that: \`${raiseLimitHint(text(data.thread), data.limit)}\``,
  "thread-stranded": (data) =>
    ` Fork the thread with a corrected reply: \`uwf fork ${text(data.head)} --output FILE\` (FILE holds the whole reply, frontmatter first), ` +
    `or stop it: \`uwf cancel ${text(data.thread)}\``,
  // The engine's resume refusals (ResumeMismatchError) say what the resume needed; other usage errors are the CLI's own.
  usage: (data) => {
    switch (data.needs) {
      case "raised-limit":
        return `: raise the limit with \`uwf resume ${text(data.thread)} ${BUDGET_LIMIT_NAMES[data.limit].flag} ...\` and no -p`;
      case "answer":
        return ": give it with -p ANSWER (a raised limit alone does not answer it)";
      case "prompt":
        return ": continuing it takes a prompt, -p PROMPT";
      case "retry":
        return `: \`uwf resume ${text(data.thread)}\` with no -p tries its step again`;
      default:
        return null;
    }
  },
};

/** The `uwf …` hint the CLI adds to this error's message (or to an error as data, `{ code, data }`), or "" when it adds none. */
export function hintFor<C extends ErrorCode>(error: CodedError<C>): string {
  const hint: Hint<C> | undefined = HINTS[error.code];
  return hint?.(error.data) ?? "";
}

/** The error's message as the CLI shows it: with its hint. */
export function messageWithHint<C extends ErrorCode>(error: CodedError<C> & { message: string }): string {
  return `${error.message}${hintFor(error)}`;
}

function text(value: unknown): string {
  return String(value);
}

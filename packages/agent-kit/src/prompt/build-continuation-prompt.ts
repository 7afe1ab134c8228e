import { answerSchemaOf, type Role, type WorkflowNode } from "@uwf/protocol";
import {
  buildReplySchema,
  formatYaml,
  REASON_FIELD,
  restoreFieldOrder,
  STATUS_FIELD,
  SUSPEND_STATUS,
  UnknownRoleError,
} from "@uwf/workflow";
import { buildOutputFormatSection, formatField } from "./build-output-format-section.ts";
import { describeRoutes } from "./describe-routes.ts";
import { describeSchemaFields } from "./describe-schema-fields.ts";
import { fenceText } from "./fence-text.ts";
import {
  type BodyAllotment,
  formatHistoryEntry,
  formatHistoryParts,
  wholeThreadHistoryLead,
} from "./format-history-section.ts";
import type { HistoryEntry, NamedStep } from "./history-entry.ts";

/** Characters of step bodies a prompt shows, newest first, unless the caller says otherwise. */
export const DEFAULT_BODY_QUOTA = 20_000;

export interface BuildContinuationPromptOptions {
  workflow: WorkflowNode;
  /** The role that acts next (chosen by the moderator). */
  roleName: string;
  /** The thread's start prompt. */
  task: string;
  /** The thread's start inputs (`uwf start --input`), shown with the task. */
  inputs?: Record<string, unknown>;
  /**
   * Every step so far, oldest first. With `continuesConversation`, the steps before
   * `firstShownStep(history, roleName)` may be only named.
   */
  history: readonly (HistoryEntry | NamedStep)[];
  /**
   * True for the prompt of an agent that continues its own conversation of the role's last visit
   * (the built-in agent continuing its transcript, Claude Code resuming its session): its history
   * shows that visit and the steps since. Default false: the whole thread (DESIGN §5, sight).
   */
  continuesConversation?: boolean;
  /** The rendered prompt of the edge the moderator followed. */
  edgePrompt: string;
  bodyQuota?: number;
}

/**
 * The prompt for the next step, in DESIGN §5's order: output format → the role
 * → the task → the history → the edge prompt. Pure and deterministic: the only
 * times in it are the history's own. Everything up to the task is the same at
 * every visit of the role (the step number is told with the next step), so a
 * model agent can send it as a system prompt the provider caches.
 */
export function buildContinuationPrompt(options: BuildContinuationPromptOptions): string {
  return buildContinuationPromptParts(options)
    .map((part) => part.text)
    .join("");
}

/** A piece of a prompt; `shared` marks a history entry, which later prompts of the thread repeat word for word. */
export interface PromptTextPart {
  text: string;
  shared: boolean;
  /** Of a shared part read back from the store: the address of the `text/1` node holding `text` (not hashed again). */
  address?: string;
}

/**
 * buildContinuationPrompt in pieces whose texts, joined, are the prompt: each history entry is a piece of
 * its own, so the prompt can be stored as references to the entries it shares with earlier prompts
 * (`prompt/1`) plus its own text.
 */
export function buildContinuationPromptParts(options: BuildContinuationPromptOptions): PromptTextPart[] {
  const { workflow, roleName } = options;
  if (workflow.roles[roleName] === undefined) {
    throw new UnknownRoleError(workflow.name, roleName);
  }
  const history = options.history.map((entry) => ("output" in entry ? inFieldOrder(workflow, entry) : entry));
  const stepNumber = (history.at(-1)?.number ?? 0) + 1;
  const { lead, entries } = formatHistoryParts({
    history,
    roleName,
    bodyQuota: options.bodyQuota ?? DEFAULT_BODY_QUOTA,
    sinceLastVisit: options.continuesConversation ?? false,
  });
  return assemblePromptParts({ ...options, lead, entries, stepNumber });
}

/** What assembleWholeThreadPrompt needs besides the entries: everything but the history. */
export type WholeThreadPromptOptions = Omit<BuildContinuationPromptOptions, "history" | "continuesConversation"> & {
  /** The thread's steps so far. */
  stepCount: number;
  /** The numbers of the steps the role played. */
  ownSteps: readonly number[];
  /** Each step's history entry (formatHistoryEntryOf), oldest first. */
  entries: readonly string[];
  /**
   * Instead of `entries`: the history as shared parts, oldest first, each the text of one entry or of a
   * run of entries, every entry preceded by a blank line (what `entries` gives, grouped).
   */
  entryParts?: readonly PromptTextPart[];
};

/**
 * The whole-thread prompt (what an agent that keeps no conversation gets) from history entries formatted
 * beforehand: the same pieces buildContinuationPromptParts gives for that history, so a caller that kept
 * the entries of an earlier prompt formats only the steps since (issue 43).
 */
export function assembleWholeThreadPrompt(options: WholeThreadPromptOptions): PromptTextPart[] {
  const lead = wholeThreadHistoryLead(options.ownSteps, options.stepCount, options.bodyQuota ?? DEFAULT_BODY_QUOTA);
  const parts = assemblePromptParts({ ...options, lead, entries: options.entries, stepNumber: options.stepCount + 1 });
  if (options.entryParts === undefined) return parts;
  // The opening, the entries (shared parts) and the closing: the given parts take the entries' place.
  return [parts[0] as PromptTextPart, ...options.entryParts, parts.at(-1) as PromptTextPart];
}

/** One step's history entry as a prompt of `roleName` shows it: its fields in the author's order, `body` of its body. */
export function formatHistoryEntryOf(
  workflow: WorkflowNode,
  roleName: string,
  entry: HistoryEntry,
  body: BodyAllotment,
): string {
  return formatHistoryEntry(inFieldOrder(workflow, entry), entry.role === roleName, body);
}

function assemblePromptParts(
  options: Omit<BuildContinuationPromptOptions, "history"> & {
    lead: string;
    entries: readonly string[];
    stepNumber: number;
  },
): PromptTextPart[] {
  const { workflow, roleName, task, edgePrompt, lead, entries, stepNumber } = options;
  const role = workflow.roles[roleName];
  if (role === undefined) {
    throw new UnknownRoleError(workflow.name, roleName);
  }
  const opening = [
    buildOutputFormatSection(buildReplySchema(workflow, roleName), { routes: describeRoutes(workflow, roleName) }),
    ...formatAskingSection(role),
    formatRoleSection(workflow, roleName, role),
    formatTaskSection(task, options.inputs),
    lead,
  ];
  const closing = `# Your next step\n\nThis is step ${stepNumber} of the thread.\n\n${edgePrompt.trim()}`;
  return [
    { text: opening.join("\n\n"), shared: false },
    ...entries.map((entry) => ({ text: `\n\n${entry}`, shared: true })),
    { text: `\n\n${closing}\n`, shared: false },
  ];
}

/**
 * A step's output with its fields in the order its role's author wrote them (`$status` first):
 * outputs are stored as canonical JSON, which sorts them.
 */
function inFieldOrder(workflow: WorkflowNode, entry: HistoryEntry): HistoryEntry {
  const frontmatter = workflow.roles[entry.role]?.frontmatter;
  if (frontmatter === undefined) return entry;
  const properties = restoreFieldOrder(frontmatter).properties;
  const order = [STATUS_FIELD, ...Object.keys(properties !== null && typeof properties === "object" ? properties : {})];
  const output: Record<string, unknown> = {};
  for (const name of order) if (name in entry.output) output[name] = entry.output[name];
  for (const [name, value] of Object.entries(entry.output)) if (!(name in output)) output[name] = value;
  return { ...entry, output };
}

/**
 * For a role that declares `ask:` or `answer:`: what a suspending reply carries, and the shape of the
 * answer a person gives back (it comes in the prompt of the step that answers). None for other roles.
 */
function formatAskingSection(role: Role): string[] {
  if (role.ask === undefined && role.answer === undefined) return [];
  const parts = ["## When you suspend"];
  const suspend = `reply \`${STATUS_FIELD}: ${SUSPEND_STATUS}\` with a \`${REASON_FIELD}:\``;
  if (role.ask === undefined) parts.push(`To ask a person, ${suspend} saying what you need.`);
  else {
    const fields = describeSchemaFields(restoreFieldOrder(role.ask));
    parts.push(
      `To ask a person, ${suspend} and these fields (instead of the fields above):`,
      fields.length === 0 ? "No other fields." : fields.map(formatField).join("\n"),
    );
  }
  const answer = answerSchemaOf(role);
  if (answer !== null) {
    const fields = describeSchemaFields(restoreFieldOrder(answer));
    parts.push(
      "The person's answer comes back to you, in your next step's prompt, as YAML with these fields:",
      fields.length === 0 ? "(any fields)" : fields.map(formatField).join("\n"),
    );
  }
  return [parts.join("\n\n")];
}

function formatTaskSection(task: string, inputs: Record<string, unknown> | undefined): string {
  const section = `# Task\n\n${task.trim()}`;
  if (inputs === undefined || Object.keys(inputs).length === 0) return section;
  return `${section}\n\nThe thread was started with these inputs:\n\n${fenceText(formatYaml(inputs).trimEnd(), "yaml")}`;
}

function formatRoleSection(workflow: WorkflowNode, roleName: string, role: Role): string {
  const about = workflow.description === undefined ? "" : ` (${workflow.description.trim()})`;
  const parts = [
    `# Your role: ${roleName}`,
    `You play the role "${roleName}" in a thread of the workflow "${workflow.name}"${about}.`,
  ];
  if (role.description !== undefined) parts.push(role.description.trim());
  parts.push(`## Goal\n\n${role.goal.trim()}`);
  if (role.capabilities !== undefined && role.capabilities.length > 0) {
    parts.push(`## Capabilities\n\n${role.capabilities.map((capability) => `- ${capability}`).join("\n")}`);
  }
  if (role.procedure !== undefined) parts.push(`## Procedure\n\n${role.procedure.trim()}`);
  if (role.output !== undefined) parts.push(`## Output\n\n${role.output.trim()}`);
  return parts.join("\n\n");
}

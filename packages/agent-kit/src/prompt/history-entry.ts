/** One earlier step of the thread, as the prompt shows it. Oldest first; `number` is the real step number. */
export interface HistoryEntry {
  number: number;
  role: string;
  /** The agent alias that played the role. */
  agent: string;
  output: Record<string, unknown>;
  body: string;
  /** What the role was asked at that step, when known. */
  edgePrompt?: string;
  startedAt: string;
  completedAt: string;
}

/**
 * A step the prompt only names, by number and role: one before `firstShownStep`. A caller may
 * pass such steps in place of whole entries, and so need not read their outputs, bodies or agents.
 */
export type NamedStep = Pick<HistoryEntry, "number" | "role">;

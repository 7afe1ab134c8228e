import type { Usage } from "@uwf/protocol";

/** A step as the moderator, the prompt builder and `read` see it. */
export interface HistoryStep {
  number: number;
  address: string;
  role: string;
  agent: string;
  output: Record<string, unknown>;
  body: string;
  edgePrompt: string;
  startedAt: string;
  completedAt: string;
  run: string;
  usage: Usage | null;
  /** On the step that answered a typed suspension: the person's answer (its `answer/1` node). */
  answer?: Record<string, unknown>;
}

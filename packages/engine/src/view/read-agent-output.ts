import type { Store } from "@uwf/cas";
import type { AgentOutputResult, ThreadRecord } from "@uwf/protocol";

/**
 * What the thread's agents printed as they ran (stored, capped per run), page by page from the ref store:
 * every step's, or only step `step`'s (`uwf log --agent-output [--step N]`, `GET /api/threads/:id/output`).
 */
export async function readAgentOutput(
  store: Pick<Store, "refs">,
  record: ThreadRecord,
  step?: number,
): Promise<AgentOutputResult> {
  const chunks: AgentOutputResult["chunks"] = [];
  let after = { step: 0, seq: 0 };
  for (;;) {
    const page = await store.refs.readStepOutput(record.id, { ...(step === undefined ? {} : { step }), after });
    const last = page.at(-1);
    if (last === undefined) break;
    chunks.push(...page);
    after = { step: last.step, seq: last.seq };
  }
  return { thread: record.id, step: step ?? null, chunks };
}

import { readChain } from "@uwf/engine";
import { failedRunSpan } from "./failed-run-span.ts";
import type { SpanSource } from "./span-source.ts";
import { isOwnStep, spansOfStep } from "./step-spans.ts";
import type { UwfSpan } from "./uwf-span.ts";

/**
 * Every span of a thread as the store has it now: each step it recorded itself (not a fork's shared
 * history), the waits of its answered suspensions, and the run that left it failed. The same spans,
 * with the same ids, that the processes that ran its steps exported.
 */
export async function spansOfThread(source: SpanSource, threadId: string): Promise<UwfSpan[]> {
  source.forget(threadId);
  const record = await source.record(threadId);
  if (record === null) return [];
  const chain = await readChain(source.store, record.head, { thread: record });
  // Newest back to the first step the thread did not record: that and everything older is another thread's.
  let oldestOwn = chain.steps.length;
  for (let index = chain.steps.length - 1; index >= 0; index--) {
    const address = (chain.steps[index] as { address: string }).address;
    const node = await source.step(address);
    if (node === null || !(await isOwnStep(source, record, address, node))) break;
    oldestOwn = index;
  }
  const spans: UwfSpan[] = [];
  for (let index = oldestOwn; index < chain.steps.length; index++) {
    const address = (chain.steps[index] as { address: string }).address;
    spans.push(...(await spansOfStep(source, record, address, index + 1)));
  }
  const failed = record.status === "failed" ? await failedRunSpan(source, record) : null;
  if (failed !== null) spans.push(failed);
  return spans;
}

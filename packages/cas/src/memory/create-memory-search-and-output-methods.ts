import type { ThreadRecord } from "@uwf/protocol";
import { checkListQuery } from "../refs/check-list-query.ts";
import { checkStepOutputQuery } from "../refs/check-step-output.ts";
import { searchCountCeiling, searchTotal } from "../refs/search-count.ts";
import { mergeSearchWords, searchWords } from "../refs/search-words.ts";
import type { StepOutputChunk, StepOutputLog } from "../refs/step-output-log.ts";
import type { ThreadSearch } from "../refs/thread-search.ts";

/** The search index and step output of a memory ref store, over its threads; `forgetThread` when one is deleted. */
export function createMemorySearchAndOutputMethods(threads: ReadonlyMap<string, ThreadRecord>): {
  methods: ThreadSearch & StepOutputLog;
  forgetThread(threadId: string): void;
} {
  const words = new Map<string, string>();
  const outputs = new Map<string, StepOutputChunk[]>();
  // A thread is found by its id and workflow however it was made, as the SQL stores' triggers index them.
  const wordsOf = (record: ThreadRecord) =>
    new Set(mergeSearchWords(words.get(record.id) ?? "", [record.id, record.workflow]).split(" "));
  return {
    forgetThread(threadId) {
      words.delete(threadId);
      outputs.delete(threadId);
    },
    methods: {
      async listThreadWords(threadId) {
        const record = threads.get(threadId);
        return record === undefined ? [] : searchWords([...wordsOf(record)].join(" "));
      },
      async indexThreadText(threadId, texts) {
        if (!threads.has(threadId)) return;
        words.set(threadId, mergeSearchWords(words.get(threadId) ?? "", texts));
      },
      async searchThreads(input) {
        const query = checkListQuery(input);
        const ceiling = searchCountCeiling(input);
        const wanted = searchWords(input.text);
        if (wanted.length === 0) return { threads: [], total: 0, more: false };
        const matching = [...threads.values()]
          .filter((thread) => query.status === undefined || thread.status === query.status)
          .filter((thread) => query.workflow === undefined || thread.workflow === query.workflow)
          .filter((thread) => {
            const held = [...wordsOf(thread)];
            return wanted.every((word) => held.some((candidate) => candidate.startsWith(word)));
          })
          .sort((left, right) => (left.id < right.id ? 1 : left.id > right.id ? -1 : 0));
        const offset = query.offset ?? 0;
        const page = matching.slice(offset, query.limit === undefined ? undefined : offset + query.limit);
        return {
          threads: page.map((thread) => structuredClone(thread)),
          ...searchTotal(matching.length, ceiling),
        };
      },
      async appendStepOutput(threadId, chunks) {
        const stored = outputs.get(threadId) ?? [];
        for (const chunk of chunks) {
          if (stored.some((held) => held.step === chunk.step && held.seq === chunk.seq)) continue;
          stored.push({ ...chunk });
        }
        stored.sort((left, right) => left.step - right.step || left.seq - right.seq);
        outputs.set(threadId, stored);
      },
      async readStepOutput(threadId, input = {}) {
        const query = checkStepOutputQuery(input);
        const after = query.after;
        return (outputs.get(threadId) ?? [])
          .filter((chunk) => query.step === undefined || chunk.step === query.step)
          .filter(
            (chunk) =>
              after === undefined || chunk.step > after.step || (chunk.step === after.step && chunk.seq > after.seq),
          )
          .slice(0, query.limit)
          .map((chunk) => ({ ...chunk }));
      },
    },
  };
}

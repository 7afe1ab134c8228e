import { BatchSpanProcessor } from "@opentelemetry/sdk-trace";
import type { Store, ThreadUpdate } from "@uwf/cas";
import { readChain } from "@uwf/engine";
import type { Address, ThreadRecord } from "@uwf/protocol";
import { createSpanExporter } from "./create-span-exporter.ts";
import { failedRunSpan } from "./failed-run-span.ts";
import { makeResource } from "./make-resource.ts";
import { observeStore } from "./observe-store.ts";
import type { OtelSettings } from "./otel-settings.ts";
import { SpanSource } from "./span-source.ts";
import { spansOfStep } from "./step-spans.ts";
import { toReadableSpan } from "./to-readable-span.ts";
import type { UwfSpan } from "./uwf-span.ts";

/**
 * How long a process that exported spans waits for them to be sent before it exits (documented in
 * docs/observability.md): a dead or slow collector costs a command at most this.
 */
export const EXIT_FLUSH_DEADLINE_MS = 2000;

/** Spans waiting in the batch are sent at least this often by a long-running process (a worker, `run`, the UI). */
const BATCH_DELAY_MS = 1000;

export interface LiveExport {
  /** The store, observed: each step it commits, and each failure it records, becomes spans. */
  observe(store: Store): Store;
  /** Sends what is left, giving up at the deadline; never throws. Resolves true when everything was handed over in time. */
  flush(deadlineMs?: number): Promise<boolean>;
}

/**
 * Exports the steps this process writes, as they are committed: the store's thread updates are
 * watched (so `step`, `run`, `resume`, workers, `tick` and the UI's actions are covered alike), the
 * spans built from the nodes just written, and handed to a batch processor that sends them in the
 * background. Nothing here can fail or stop a step: errors are swallowed, and a slow collector only
 * delays the process's exit, by at most the flush deadline.
 */
export function startLiveExport(settings: OtelSettings): LiveExport {
  const exporter = createSpanExporter(settings, EXIT_FLUSH_DEADLINE_MS);
  const processor = new BatchSpanProcessor({
    exporter,
    scheduledDelayMillis: BATCH_DELAY_MS,
    exportTimeoutMillis: EXIT_FLUSH_DEADLINE_MS,
  });
  const resource = makeResource(settings.serviceName);
  const pending = new Set<Promise<void>>();
  // A source per update: its caches live as long as one step's spans, not as long as a worker or the UI.
  const newSource = (store: Store) => new SpanSource(store, { captureContent: settings.captureContent });

  const send = (spans: UwfSpan[]) => {
    for (const span of spans) processor.onEnd(toReadableSpan(span, resource));
  };
  const track = (work: Promise<void>) => {
    const settled = work.catch(() => {});
    pending.add(settled);
    void settled.finally(() => pending.delete(settled));
  };

  const onUpdate = (store: Store, id: string, expectedHead: Address, update: ThreadUpdate) => {
    const spanSource = newSource(store);
    track(
      (async () => {
        const stored = await spanSource.record(id);
        if (stored === null) return;
        const record = { ...stored, ...update } as ThreadRecord;
        if (update.head !== undefined && update.head !== expectedHead) {
          const chain = await readChain(store, update.head, { thread: record });
          send(await spansOfStep(spanSource, record, update.head, chain.steps.length));
        }
        if (update.failure != null) {
          const failed = await failedRunSpan(spanSource, record);
          if (failed !== null) send([failed]);
        }
      })(),
    );
  };

  const onCreate = (store: Store, record: ThreadRecord) => {
    // `fork --output`: the replacement reply is a step the fork records as it is made.
    if (record.forkedFrom?.replaced !== true) return;
    const spanSource = newSource(store);
    track(
      (async () => {
        const chain = await readChain(store, record.head, { thread: record });
        send(await spansOfStep(spanSource, record, record.head, chain.steps.length));
      })(),
    );
  };

  return {
    observe: (store) => observeStore(store, { onUpdate, onCreate }),
    async flush(deadlineMs = EXIT_FLUSH_DEADLINE_MS) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const deadline = new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), deadlineMs);
      });
      const work = (async () => {
        await Promise.allSettled([...pending]);
        await processor.forceFlush();
        return true as const;
      })().catch(() => false as const);
      try {
        return await Promise.race([work, deadline]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

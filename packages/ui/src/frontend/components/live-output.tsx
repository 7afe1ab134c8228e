import "./live-output.css";
import type { AgentOutputResult, LogResult } from "@uwf/protocol";
import { useEffect, useRef, useState } from "preact/hooks";
import { useLiveEvents } from "../lib/live.ts";
import { Link } from "../lib/router.tsx";
import { ErrorBox } from "./error-box.tsx";
import { useApi } from "./use-api.ts";

type Chunk = AgentOutputResult["chunks"][number];

/** What a page keeps of one step's output: the step stores at most 1 MiB a run, and so does the page. */
const PAGE_CAP_CHARS = 1024 * 1024;

/** A step's output as printed: stdout plain, stderr in the warning colour, uwf's own notes (truncated) marked. */
function OutputText(props: { chunks: readonly Chunk[]; testid: string }) {
  const box = useRef<HTMLPreElement>(null);
  const pinned = useRef(true);
  useEffect(() => {
    // Follows the newest line unless the reader scrolled up to read.
    if (box.current !== null && pinned.current) box.current.scrollTop = box.current.scrollHeight;
  });
  return (
    <pre
      ref={box}
      class="live-output"
      data-testid={props.testid}
      onScroll={(event) => {
        const element = event.currentTarget;
        pinned.current = element.scrollTop + element.clientHeight >= element.scrollHeight - 8;
      }}
    >
      {props.chunks.map((chunk) => (
        <span key={`${chunk.step}-${chunk.seq}`} class={`out-${chunk.stream}`}>
          {chunk.text}
        </span>
      ))}
    </pre>
  );
}

/**
 * The thread page's live output: what the running step's agent prints (stdout and stderr; a built-in
 * agent's turns and tool calls), from whichever process runs it, as `step-output` events arrive, after
 * what it printed before the page opened. It stays on the page, as the last step's output, until another
 * step prints; the step's own page keeps it after.
 */
export function LiveOutputPanel(props: {
  thread: string;
  stepCount: number;
  running: boolean;
  steps: LogResult["steps"];
}) {
  const { thread, stepCount } = props;
  const [step, setStep] = useState(stepCount + 1);
  const [chunks, setChunks] = useState<Chunk[]>([]);
  const earlier = useApi<AgentOutputResult>(`/api/threads/${thread}/output?step=${stepCount + 1}`);
  useEffect(() => {
    const stored = earlier.data?.chunks ?? [];
    if (stored.length === 0) return;
    setChunks((current) => merge(stored, current));
  }, [earlier.data]);
  useLiveEvents(
    (event) => {
      if (event.type !== "step-output" || event.thread !== thread) return;
      const { type: _type, thread: _thread, ...chunk } = event;
      if (chunk.step > step) {
        setStep(chunk.step);
        setChunks([chunk]);
      } else if (chunk.step === step) setChunks((current) => merge(current, [chunk]));
    },
    thread,
    { output: true },
  );
  if (chunks.length === 0) return null;
  const recorded = props.steps.find((entry) => entry.number === step);
  return (
    <section class="panel" data-testid="live-output" data-step={step}>
      <h2>
        {recorded === undefined ? "Live output" : "Output"} <span class="muted">of step {step}</span>
        {recorded === undefined && props.running ? <span class="live-dot" title="running" /> : null}
        {recorded !== undefined ? (
          <>
            {" "}
            <Link href={`/steps/${recorded.address}`}>step page</Link>
          </>
        ) : null}
      </h2>
      <OutputText chunks={chunks} testid="live-output-text" />
    </section>
  );
}

/** The step page's record of what the step's agent printed as it ran (every run of that step number). */
export function StepAgentOutput(props: { thread: string; address: string }) {
  const log = useApi<LogResult>(`/api/threads/${props.thread}/log`);
  const number = log.data?.steps.find((step) => step.address === props.address)?.number ?? null;
  const output = useApi<AgentOutputResult>(
    number === null ? null : `/api/threads/${props.thread}/output?step=${number}`,
  );
  if (output.error !== null) return <ErrorBox error={output.error} />;
  const chunks = output.data?.chunks ?? [];
  if (chunks.length === 0) return null;
  return (
    <section class="panel" data-testid="step-agent-output">
      <h2>Agent output</h2>
      <OutputText chunks={chunks} testid="step-agent-output-text" />
    </section>
  );
}

/** The chunks of both, each once, in seq order, the oldest dropped past PAGE_CAP_CHARS. */
function merge(left: readonly Chunk[], right: readonly Chunk[]): Chunk[] {
  const bySeq = new Map<number, Chunk>();
  for (const chunk of [...left, ...right]) bySeq.set(chunk.seq, chunk);
  const sorted = [...bySeq.values()].sort((a, b) => a.seq - b.seq);
  let total = 0;
  let first = sorted.length;
  while (first > 0 && total + (sorted[first - 1] as Chunk).text.length <= PAGE_CAP_CHARS) {
    first--;
    total += (sorted[first] as Chunk).text.length;
  }
  return sorted.slice(first);
}

import "./eval-matrix.css";
import type { EvalResult, EvalSample, ExpandedNode } from "@uwf/protocol";
import { useState } from "preact/hooks";
import { Link } from "../lib/router.tsx";
import { CheckBox } from "./check-box.tsx";
import { ErrorBox } from "./error-box.tsx";
import { shortThread } from "./format.ts";
import { JsonView } from "./json-view.tsx";
import { MarkdownText } from "./markdown-text.tsx";
import { useApi } from "./use-api.ts";
import { OutcomeText, StateBadge } from "./view-common.tsx";

/** A report's cases (rows) and variants (columns), in the order its samples first name them. */
function axes(samples: readonly EvalSample[]): { cases: (string | null)[]; variants: (string | null)[] } {
  const cases: (string | null)[] = [];
  const variants: (string | null)[] = [];
  for (const sample of samples) {
    if (!cases.includes(sample.case)) cases.push(sample.case);
    if (!variants.includes(sample.variant)) variants.push(sample.variant);
  }
  return { cases, variants };
}

/**
 * An eval report as promptfoo lays one out: a row per case, a column per variant, and in each cell its
 * samples (one per repeat), each with its verdict, how its thread ended, and its final reply, expandable.
 * `failuresOnly` keeps the samples that did not pass, and the rows that still hold one.
 */
export function EvalMatrix(props: { result: EvalResult; failuresOnly: boolean }) {
  const { result, failuresOnly } = props;
  const shown = failuresOnly ? result.samples.filter((sample) => sample.verdict !== "passed") : result.samples;
  const { variants } = axes(result.samples);
  const { cases } = axes(shown);
  if (shown.length === 0) {
    return (
      <p class="empty" data-testid="matrix-empty">
        {failuresOnly ? "No failures: every sample passed." : "No samples."}
      </p>
    );
  }
  return (
    <table class="data eval-matrix" data-testid="eval-matrix" data-report={result.report}>
      <thead>
        <tr>
          <th scope="col">Case</th>
          {variants.map((variant) => (
            <th key={variant ?? ""} scope="col" data-variant={variant ?? ""}>
              {variant ?? "(no variant)"}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {cases.map((name) => (
          <tr key={name ?? ""} data-testid="matrix-row" data-case={name ?? ""}>
            <th scope="row">{name ?? "(no case)"}</th>
            {variants.map((variant) => {
              const cell = shown.filter((sample) => sample.case === name && sample.variant === variant);
              return (
                <td key={variant ?? ""} data-testid="matrix-cell" data-variant={variant ?? ""}>
                  {cell.map((sample) => (
                    <MatrixSample key={sample.thread} sample={sample} />
                  ))}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function MatrixSample(props: { sample: EvalSample }) {
  const { sample } = props;
  const [open, setOpen] = useState(false);
  const why = [
    ...sample.scores
      .filter((score) => score.verdict !== "passed")
      .map((score) => `${score.assertion}: ${score.verdict}${score.reason === null ? "" : ` (${score.reason})`}`),
    ...(sample.error === null ? [] : [sample.error]),
  ];
  return (
    <div
      class={`stripe-box matrix-sample verdict-${sample.verdict}`}
      data-testid="matrix-sample"
      data-verdict={sample.verdict}
    >
      <div class="matrix-sample-head">
        <StateBadge state={sample.verdict} />
        {sample.outcome === null ? <StateBadge state={sample.status} /> : <OutcomeText outcome={sample.outcome} />}
        <Link href={`/threads/${sample.thread}`} title={sample.thread} class="mono">
          {shortThread(sample.thread)}
        </Link>
      </div>
      {why.length > 0 ? <div class="matrix-why">{why.join("; ")}</div> : null}
      <details
        data-testid="final-reply"
        onToggle={(event) => setOpen((event.currentTarget as HTMLDetailsElement).open)}
      >
        <summary>Final reply</summary>
        {open ? <FinalReply sample={sample} /> : null}
      </details>
    </div>
  );
}

/** The scored head's reply: its fields as the report kept them, and its body, read when opened. */
function FinalReply(props: { sample: EvalSample }) {
  const node = useApi<ExpandedNode>(`/api/nodes/${props.sample.head}`);
  return (
    <div class="matrix-final" data-testid="final-reply-body">
      <JsonView value={props.sample.final} openDepth={1} />
      {node.error !== null ? <ErrorBox error={node.error} /> : null}
      {typeof node.data?.body === "string" ? <MarkdownText text={node.data.body} label="final reply" /> : null}
    </div>
  );
}

/** The "failures only" switch above a matrix. */
export function FailuresOnlyToggle(props: { checked: boolean; onChange(checked: boolean): void }) {
  return (
    <CheckBox class="failures-only" testid="failures-only" checked={props.checked} onChange={props.onChange}>
      Failures only
    </CheckBox>
  );
}

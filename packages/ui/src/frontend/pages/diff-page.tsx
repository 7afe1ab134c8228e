import type { DiffResult, DiffStep, DiffStepSide, DiffTotals, FieldDifference, LogResult } from "@uwf/protocol";
import { useState } from "preact/hooks";
import "../components/diff-view.css";
import { ErrorBox } from "../components/error-box.tsx";
import {
  formatCompactTokens,
  formatCost,
  formatDuration,
  formatValue,
  shortThread,
  usageTokens,
} from "../components/format.ts";
import { useApi } from "../components/use-api.ts";
import { Loading, StateBadge } from "../components/view-common.tsx";
import { Link } from "../lib/router.tsx";

/** A unified diff with its lines coloured: `+` added, `-` removed, `@@` hunk heads, `---`/`+++` file heads. */
export function UnifiedDiff(props: { text: string }) {
  const lines = props.text.split("\n");
  return (
    <pre class="unified-diff">
      {lines.map((line, index) => {
        const kind =
          line.startsWith("+++") || line.startsWith("---")
            ? "head"
            : line.startsWith("@@")
              ? "hunk"
              : line.startsWith("+")
                ? "add"
                : line.startsWith("-")
                  ? "del"
                  : "same";
        return (
          <span key={index} class={`diff-line ${kind}`}>
            {line === "" ? " " : line}
            {"\n"}
          </span>
        );
      })}
    </pre>
  );
}

function SideLink(props: { side: DiffResult["left"] }) {
  const { side } = props;
  if (side.thread === null) return <code title="a node address">{side.head}</code>;
  return (
    <Link href={`/threads/${side.thread}`} class="diff-thread" title={side.thread}>
      {shortThread(side.thread)}
    </Link>
  );
}

function StepCell(props: { side: DiffStepSide | null; other: DiffStepSide | null }) {
  const { side, other } = props;
  if (side === null) return <td class="diff-side absent">no step</td>;
  const differs = (pick: (value: DiffStepSide) => unknown) => other !== null && pick(side) !== pick(other);
  return (
    <td class="diff-side">
      <div>
        <Link href={`/steps/${side.address}`} class={differs((value) => value.role) ? "changed" : ""}>
          <strong>{side.role}</strong>
        </Link>
        {side.status !== null && (
          <code class={`diff-status${differs((value) => value.status) ? " changed" : ""}`}>{side.status}</code>
        )}
      </div>
      <div class="diff-meta">
        <span class={differs((value) => value.agent) ? "changed" : ""}>{side.agent}</span>
        <span>{formatDuration(side.durationMs)}</span>
        <span>{formatCompactTokens(usageTokens(side.usage))} tok</span>
        <span>{formatCost(side.usage?.costUsd)}</span>
      </div>
    </td>
  );
}

function FieldRows(props: { fields: readonly FieldDifference[] }) {
  return (
    <table class="diff-fields">
      <tbody>
        {props.fields.map((field) => (
          <tr key={field.field} class={`diff-field change-${field.change}`} data-field={field.field}>
            <th>
              <code>{field.field}</code>
              <span class="diff-change">{field.change}</span>
            </th>
            <td class="left">{"left" in field ? <code>{formatValue(field.left)}</code> : "—"}</td>
            <td class="right">{"right" in field ? <code>{formatValue(field.right)}</code> : "—"}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function PairedStep(props: { step: DiffStep }) {
  const { step } = props;
  return (
    <>
      <tr class="diff-step" data-step={step.number}>
        <td class="diff-number">{step.number}</td>
        <StepCell side={step.left} other={step.right} />
        <StepCell side={step.right} other={step.left} />
      </tr>
      {(step.fields.length > 0 || (step.bodyDiff !== undefined && step.bodyDiff !== "")) && (
        <tr class="diff-detail">
          <td />
          <td colSpan={2}>
            {step.fields.length > 0 && <FieldRows fields={step.fields} />}
            {step.bodyDiff !== undefined && step.bodyDiff !== "" && <UnifiedDiff text={step.bodyDiff} />}
            {step.bodyDiff === "" && <p class="empty">Same body.</p>}
          </td>
        </tr>
      )}
    </>
  );
}

function CommonPrefix(props: { result: DiffResult }) {
  const { result } = props;
  const [open, setOpen] = useState(false);
  const thread = result.left.thread ?? result.right.thread;
  const log = useApi<LogResult>(open && thread !== null ? `/api/threads/${thread}/log` : null);
  if (!result.sameStart) {
    return (
      <p class="diff-prefix empty">
        The two start differently (workflow, task, directory or inputs): nothing is shared.
      </p>
    );
  }
  const count = result.commonSteps;
  return (
    <details class="diff-prefix" onToggle={(event) => setOpen((event.currentTarget as HTMLDetailsElement).open)}>
      <summary>
        {count === 0 ? "Same start, no common step" : `${count} common step${count === 1 ? "" : "s"} (folded)`}
        {result.commonAddress !== null && <code class="diff-common-address">{result.commonAddress}</code>}
      </summary>
      {count > 0 && log.error !== null && log.error !== undefined && <ErrorBox error={log.error} />}
      {count > 0 && log.data !== null && (
        <ol class="diff-common-steps">
          {log.data.steps.slice(0, count).map((step) => (
            <li key={step.address}>
              <Link href={`/steps/${step.address}`}>{step.role}</Link>
              {step.status !== null && <code>{step.status}</code>}
              <span class="diff-meta">{formatDuration(step.durationMs)}</span>
            </li>
          ))}
        </ol>
      )}
      {count > 0 && open && log.data === null && log.error === null && thread !== null && <Loading />}
      {count > 0 && thread === null && (
        <p class="empty">Both sides are node addresses: open a thread to see its steps.</p>
      )}
    </details>
  );
}

function TotalsRow(props: { label: string; left: DiffTotals; right: DiffTotals; value(totals: DiffTotals): string }) {
  const left = props.value(props.left);
  const right = props.value(props.right);
  return (
    <tr class={left === right ? "" : "differs"}>
      <th>{props.label}</th>
      <td class="num">{left}</td>
      <td class="num">{right}</td>
    </tr>
  );
}

/** `/diff/:left/:right`: two threads side by side, their common prefix folded, the steps after it paired. */
export function DiffPage(props: { left: string; right: string }) {
  const diff = useApi<DiffResult>(`/api/diff/${encodeURIComponent(props.left)}/${encodeURIComponent(props.right)}`);
  if (diff.error !== null && diff.error !== undefined) return <ErrorBox error={diff.error} />;
  if (diff.data === null) return <Loading />;
  const result = diff.data;
  const { left, right } = result.totals;
  return (
    <section class="diff-page">
      <div class="page-head">
        <h1>
          Diff <SideLink side={result.left} /> ↔ <SideLink side={result.right} />
        </h1>
        <span class="sub">
          {result.steps.length} step{result.steps.length === 1 ? "" : "s"} differ after {result.commonSteps} in common
        </span>
        <span class="links">
          <Link href={`/diff/${props.right}/${props.left}`}>Swap sides</Link>
          {result.left.thread !== null && <Link href={`/threads/${result.left.thread}/family`}>Family</Link>}
        </span>
      </div>
      <CommonPrefix result={result} />
      {result.steps.length === 0 ? (
        <p class="empty">No step differs: the two chains hold the same steps.</p>
      ) : (
        <table class="diff-table">
          <thead>
            <tr>
              <th class="diff-number">#</th>
              <th>
                Left <SideLink side={result.left} /> {left.status !== null && <StateBadge state={left.status} />}
              </th>
              <th>
                Right <SideLink side={result.right} /> {right.status !== null && <StateBadge state={right.status} />}
              </th>
            </tr>
          </thead>
          <tbody>
            {result.steps.map((step) => (
              <PairedStep key={step.number} step={step} />
            ))}
          </tbody>
        </table>
      )}
      <h2>Totals</h2>
      <table class="data diff-totals">
        <thead>
          <tr>
            <th />
            <th class="num">Left</th>
            <th class="num">Right</th>
          </tr>
        </thead>
        <tbody>
          <TotalsRow label="steps" left={left} right={right} value={(totals) => String(totals.steps)} />
          <TotalsRow label="duration" left={left} right={right} value={(totals) => formatDuration(totals.durationMs)} />
          <TotalsRow
            label="tokens"
            left={left}
            right={right}
            value={(totals) => formatCompactTokens(usageTokens(totals.usage))}
          />
          <TotalsRow label="cost" left={left} right={right} value={(totals) => formatCost(totals.usage.costUsd)} />
          <TotalsRow label="status" left={left} right={right} value={(totals) => totals.status ?? "—"} />
          <TotalsRow label="last $status" left={left} right={right} value={(totals) => totals.lastStatus ?? "—"} />
        </tbody>
      </table>
    </section>
  );
}

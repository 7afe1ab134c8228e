import type { CompareResult, CompareRow, FamilyTreeNode, TreeResult } from "@uwf/protocol";
import { useState } from "preact/hooks";
import { ErrorBox } from "../components/error-box.tsx";
import "../components/family-tree.css";
import { formatCompactTokens, formatCost, formatDuration, shortThread } from "../components/format.ts";
import { useApi } from "../components/use-api.ts";
import { Loading, OutcomeText, StateBadge } from "../components/view-common.tsx";
import { useLiveEvents } from "../lib/live.ts";
import { Link, navigate } from "../lib/router.tsx";

function countMembers(nodes: readonly FamilyTreeNode[]): number {
  return nodes.reduce((sum, node) => sum + 1 + countMembers(node.children), 0);
}

function Member(props: {
  node: FamilyTreeNode;
  asked: string;
  rows: ReadonlyMap<string, CompareRow>;
  selected: readonly string[];
  toggle(thread: string): void;
}) {
  const { node, rows, selected } = props;
  const row = rows.get(node.thread);
  const checked = selected.includes(node.thread);
  return (
    <li class="family-item">
      <div
        class={`family-member${node.thread === props.asked ? " asked" : ""}${checked ? " selected" : ""}${node.kind === "branch" ? " branch" : ""}`}
        data-thread={node.thread}
        data-kind={node.kind ?? "fork"}
      >
        <label class="family-pick" title="select to compare">
          <input
            type="checkbox"
            checked={checked}
            onChange={() => props.toggle(node.thread)}
            aria-label={`select ${node.thread}`}
          />
        </label>
        <Link href={`/threads/${node.thread}`} class="family-id" title={node.thread}>
          {shortThread(node.thread)}
        </Link>
        <StateBadge state={node.status} />
        <OutcomeText outcome={node.outcome} />
        <span class="family-branch">
          {node.branchedAt === null ? (
            node.placement === "unplaced" ? (
              <span title={node.note ?? ""}>parent not found</span>
            ) : (
              "original"
            )
          ) : node.kind === "branch" ? (
            <>
              <span class="family-tag branch" title="a child thread of a fan-out">
                ⇉ branch {node.branchOf?.branch ?? ""}
              </span>{" "}
              of step {node.branchedAt}
            </>
          ) : (
            <>
              forked at step {node.branchedAt}
              {node.replaced && <span class="family-tag replaced">replaced reply</span>}
              {node.forkedOnto !== undefined && (
                <span class="family-tag onto" title="continued on another version of the workflow">
                  onto {node.forkedOnto.name}@{node.forkedOnto.address}
                </span>
              )}
            </>
          )}
        </span>
        <span class="family-stats">
          <span title="steps in its chain (its own after the fork point)">
            {node.stepCount} step{node.stepCount === 1 ? "" : "s"}
            {row !== undefined && row.ownSteps !== node.stepCount ? ` (${row.ownSteps} own)` : ""}
          </span>
          <span title="tokens its own runs used">
            {formatCompactTokens(row?.tokens ?? node.usage.inputTokens + node.usage.outputTokens)} tok
          </span>
          <span title="cost of its own runs">{formatCost(node.usage.costUsd)}</span>
          {row !== undefined && row.durationMs !== null && (
            <span title="wall time of its own steps">{formatDuration(row.durationMs)}</span>
          )}
          {row?.failure !== undefined && <code class="family-failure">{row.failure}</code>}
        </span>
        <span class="family-links">
          <Link href={`/threads/${node.thread}/graph`}>graph</Link>
        </span>
      </div>
      {node.children.length > 0 && (
        <ul class="family-children">
          {node.children.map((child) => (
            <Member
              key={child.thread}
              node={child}
              asked={props.asked}
              rows={rows}
              selected={selected}
              toggle={props.toggle}
            />
          ))}
        </ul>
      )}
    </li>
  );
}

/** `/threads/:id/family`: the thread's fork tree (with the branches of its fan-outs, marked apart), each member with its status, outcome and spend; pick two to diff. */
export function FamilyPage(props: { id: string }) {
  const tree = useApi<TreeResult>(`/api/threads/${props.id}/tree`);
  // `compare` of a fork is its own family: ask about the root, whose family the tree draws.
  const root = tree.data?.roots[0]?.thread ?? null;
  const compare = useApi<CompareResult>(root === null ? null : `/api/threads/${root}/compare`);
  const [selected, setSelected] = useState<string[]>([]);
  useLiveEvents((event) => {
    if (event.type === "thread-updated") {
      tree.reload();
      compare.reload();
    }
  });
  if (tree.error !== null && tree.error !== undefined) return <ErrorBox error={tree.error} />;
  if (tree.data === null) return <Loading />;
  const rows = new Map<string, CompareRow>((compare.data?.rows ?? []).map((row) => [row.thread, row]));
  const toggle = (thread: string) =>
    setSelected((previous) =>
      previous.includes(thread)
        ? previous.filter((each) => each !== thread)
        : // Two at most: picking a third drops the oldest pick.
          [...previous, thread].slice(-2),
    );
  const [left, right] = selected;
  const members = countMembers(tree.data.roots);
  return (
    <section class="family-page">
      <div class="page-head">
        <h1>
          Family of <span title={tree.data.thread}>{shortThread(tree.data.thread)}</span>
        </h1>
        <span class="sub">
          workflow {tree.data.workflow} · {members} thread{members === 1 ? "" : "s"}
        </span>
        <span class="links">
          <Link href={`/threads/${tree.data.thread}`}>Thread</Link>
          <Link href={`/threads/${tree.data.thread}/graph`}>Graph</Link>
        </span>
      </div>
      <div class="family-bar" role="toolbar">
        <span class="family-hint">
          {selected.length === 0
            ? "Select two threads to compare them."
            : selected.length === 1
              ? `Selected ${shortThread(left as string)}; select one more.`
              : `Selected ${shortThread(left as string)} and ${shortThread(right as string)}.`}
        </span>
        <button
          type="button"
          class="action-button family-diff"
          disabled={selected.length !== 2}
          onClick={() => {
            if (left !== undefined && right !== undefined) navigate(`/diff/${left}/${right}`);
          }}
        >
          Diff the two
        </button>
        {selected.length > 0 && (
          <button type="button" class="action-button family-clear" onClick={() => setSelected([])}>
            Clear
          </button>
        )}
      </div>
      {compare.error !== null && compare.error !== undefined && <ErrorBox error={compare.error} />}
      <ul class="family-tree">
        {tree.data.roots.map((root) => (
          <Member
            key={root.thread}
            node={root}
            asked={tree.data?.thread ?? props.id}
            rows={rows}
            selected={selected}
            toggle={toggle}
          />
        ))}
      </ul>
    </section>
  );
}

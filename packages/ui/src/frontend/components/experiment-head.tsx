import type { ComponentChildren } from "preact";
import { Link } from "../lib/router.tsx";

/**
 * The head of an experiment's page (an eval report, an exploration, two reports compared): its title, the
 * report's name, a line saying what it ran (children) and whether it was rescored, and the way back to the list.
 */
export function ExperimentHead(props: {
  title: ComponentChildren;
  report?: string;
  rescoredFrom?: string | null;
  children: ComponentChildren;
}) {
  return (
    <div class="page-head">
      <h1>{props.title}</h1>
      {props.report !== undefined && <code class="sub">{props.report}</code>}
      <span class="sub">
        {props.children}
        {props.rescoredFrom !== undefined && props.rescoredFrom !== null && ` · rescored from ${props.rescoredFrom}`}
      </span>
      <span class="links">
        <Link href="/experiments">All experiments</Link>
      </span>
    </div>
  );
}

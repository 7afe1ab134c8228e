import type { ComponentChildren } from "preact";
import { useKeyboardNavigation } from "./lib/keyboard.ts";
import { Link, matchPath, useLocation } from "./lib/router.tsx";
import { useSession } from "./lib/session.ts";
import { DiffPage } from "./pages/diff-page.tsx";
import { EvalDiffPage } from "./pages/eval-diff-page.tsx";
import { ExperimentPage } from "./pages/experiment-page.tsx";
import { ExperimentsPage } from "./pages/experiments-page.tsx";
import { ExplorePage } from "./pages/explore-page.tsx";
import { FamilyPage } from "./pages/family-page.tsx";
import { ThreadGraphPage, WorkflowGraphPage, WorkflowsPage } from "./pages/graph-page.tsx";
import { NewThreadPage } from "./pages/new-thread-page.tsx";
import { SchedulesPage } from "./pages/schedules-page.tsx";
import { StepPage } from "./pages/step-page.tsx";
import { ThreadPage } from "./pages/thread-page.tsx";
import { ThreadsPage } from "./pages/threads-page.tsx";

/** Each page of the app: its path pattern and what it shows. The server serves index.html for all of them. */
const PAGES: ReadonlyArray<{ pattern: string; render(params: Record<string, string>): ComponentChildren }> = [
  { pattern: "/", render: () => <ThreadsPage /> },
  { pattern: "/threads/new", render: () => <NewThreadPage /> },
  { pattern: "/schedules", render: () => <SchedulesPage /> },
  { pattern: "/threads/:id", render: (params) => <ThreadPage id={params.id as string} /> },
  { pattern: "/threads/:id/graph", render: (params) => <ThreadGraphPage id={params.id as string} /> },
  { pattern: "/threads/:id/family", render: (params) => <FamilyPage id={params.id as string} /> },
  { pattern: "/steps/:address", render: (params) => <StepPage address={params.address as string} /> },
  {
    pattern: "/diff/:left/:right",
    render: (params) => <DiffPage left={params.left as string} right={params.right as string} />,
  },
  { pattern: "/workflows", render: () => <WorkflowsPage /> },
  {
    pattern: "/workflows/:reference",
    render: (params) => <WorkflowGraphPage reference={params.reference as string} />,
  },
  { pattern: "/experiments", render: () => <ExperimentsPage /> },
  {
    pattern: "/experiments/diff/:baseline/:current",
    render: (params) => <EvalDiffPage baseline={params.baseline as string} current={params.current as string} />,
  },
  { pattern: "/experiments/explore/:id", render: (params) => <ExplorePage id={params.id as string} /> },
  { pattern: "/experiments/:id", render: (params) => <ExperimentPage id={params.id as string} /> },
];

export function App() {
  const location = useLocation();
  const session = useSession();
  useKeyboardNavigation();
  let page: ComponentChildren = <p class="empty">No such page: {location.path}</p>;
  for (const candidate of PAGES) {
    const params = matchPath(candidate.pattern, location.path);
    if (params !== null) {
      page = candidate.render(params);
      break;
    }
  }
  return (
    <>
      <header class="top">
        <Link href="/" class="brand">
          uwf
        </Link>
        <nav>
          <Link href="/">Threads</Link>
          <Link href="/workflows">Workflows</Link>
          <Link href="/experiments">Experiments</Link>
          <Link href="/schedules">Schedules</Link>
        </nav>
        <span class="session">
          {session === null ? "" : `${session.readOnly ? "read-only · " : ""}uwf ${session.version}`}
        </span>
      </header>
      <main>{page}</main>
    </>
  );
}

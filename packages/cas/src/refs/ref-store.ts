import type { BranchRefs } from "./branch-refs.ts";
import type { ChainRefs } from "./chain-refs.ts";
import type { ChangeFeed } from "./change-feed.ts";
import type { EvalReportRefs } from "./eval-report-refs.ts";
import type { LeaseRefs } from "./lease-refs.ts";
import type { ScheduleRefs } from "./schedule-refs.ts";
import type { StepOutputLog } from "./step-output-log.ts";
import type { StoreClock } from "./store-clock.ts";
import type { ThreadRefs } from "./thread-refs.ts";
import type { ThreadSearch } from "./thread-search.ts";
import type { WorkflowRegistry } from "./workflow-registry.ts";
import type { WriteTogether } from "./write-together.ts";

/**
 * The only mutable state: thread records, branch links, the workflow registry, step leases and the index of
 * evaluation reports (plus caches of chains).
 */
export interface RefStore
  extends ThreadRefs,
    WorkflowRegistry,
    StoreClock,
    BranchRefs,
    ScheduleRefs,
    EvalReportRefs,
    LeaseRefs,
    ChainRefs,
    ChangeFeed,
    ThreadSearch,
    StepOutputLog,
    WriteTogether {}

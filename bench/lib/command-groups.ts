import { findChain, type SuiteStores } from "./prepared-stores.ts";
import type { ProcessGroups } from "./process-groups.ts";

export interface CommandGroupsPlan {
  stepSizes: number[];
  readSteps: number;
  commandRuns: number;
  listAllRuns: number;
  readRuns: number;
}

/**
 * The everyday commands on the large store, round-robin with the floor: `start`, `fork` of a chain's head,
 * `show` of a thread and of a step, `list --limit 50`; then `list --json` of every thread, in a group of its own.
 */
export async function measureLargeStoreCommands(
  groups: ProcessGroups,
  plan: CommandGroupsPlan,
  stores: SuiteStores,
): Promise<void> {
  const { measureGroup, uwf } = groups;
  const largeHome = stores.large.generated.home;
  const middle = findChain(stores.large.generated, plan.stepSizes[1] as number);
  const middleThread = middle.threadIds[0] as string;
  const commands = (id: string, name: string, args: string[]) => ({
    id,
    name,
    store: stores.labels.large,
    options: uwf(largeHome, args, plan.commandRuns),
  });
  await measureGroup([
    commands("start", "uwf start loop -p …", ["start", "loop", "-p", "Benchmark task"]),
    commands("fork", `uwf fork HEAD (${middle.steps}-step chain)`, ["fork", middle.head]),
    commands("show-thread", "uwf show THREAD", ["show", middleThread]),
    commands("show-node", "uwf show STEP-ADDRESS", ["show", middle.head]),
    commands("list-limit", "uwf list --limit 50", ["list", "--limit", "50"]),
  ]);
  await measureGroup([
    {
      id: "list-all",
      name: "uwf list --json (all)",
      store: stores.labels.large,
      options: uwf(largeHome, ["list", "--limit", "0", "--json"], plan.listAllRuns, 1),
    },
  ]);
}

/** `uwf read` and `uwf log` of the small store's longest thread (`plan.readSteps` steps), round-robin with the floor. */
export async function measureReads(groups: ProcessGroups, plan: CommandGroupsPlan, stores: SuiteStores): Promise<void> {
  const { small } = stores;
  const readThread = findChain(small.generated, plan.readSteps).threadIds[0] as string;
  const readLabel = `${plan.readSteps.toLocaleString("en-US")}-step thread`;
  await groups.measureGroup([
    {
      id: "read",
      name: "uwf read THREAD",
      store: readLabel,
      options: groups.uwf(small.generated.home, ["read", readThread], plan.readRuns, 1),
    },
    {
      id: "log",
      name: "uwf log THREAD",
      store: readLabel,
      options: groups.uwf(small.generated.home, ["log", readThread], plan.readRuns, 1),
    },
  ]);
}

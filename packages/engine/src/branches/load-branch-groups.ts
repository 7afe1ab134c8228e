import type { BranchLink, Store } from "@uwf/cas";
import type {
  BranchError,
  BranchGroup,
  BranchView,
  FanOutNode,
  JoinPolicy,
  ThreadRecord,
  ThreadStepNode,
} from "@uwf/protocol";
import { readChain, type ThreadChain } from "../history/read-chain.ts";
import { storedNodeAs } from "../history/stored-node.ts";

/**
 * A thread's fan-outs and their branches, oldest first, as `show`, `log` and the web UI list them: each
 * step with branch links (grouped by step), and the head step when its node fanned out but no branch is
 * linked yet (a crash between the step and its branches; listed with none). Reads the links, the
 * parent's chain index, each fan-out node and each branch's record; never a branch's chain.
 */
export async function loadBranchGroups(
  store: Pick<Store, "objects" | "refs">,
  record: ThreadRecord,
): Promise<BranchGroup[]> {
  const links = await store.refs.listBranches(record.id);
  const byStep = new Map<number, BranchLink[]>();
  for (const link of links) {
    const group = byStep.get(link.step);
    if (group === undefined) byStep.set(link.step, [link]);
    else group.push(link);
  }
  if (byStep.size === 0 && record.stepCount === 0) return [];

  let chain: ThreadChain;
  try {
    chain = await readChain(store, record.head, { thread: record });
  } catch {
    return [];
  }
  // A fan-out left without branches can only be the head: whoever touches the parent next completes it.
  // (Not a role branch's head while it stands at its parent's fan-out step: that fan-out is the parent's.)
  const head = chain.nodes[chain.steps.length - 1];
  const headIsParents = record.branchOf !== undefined && record.branchOf.address === record.head;
  if (head?.fanOut !== undefined && !headIsParents && !byStep.has(chain.steps.length)) {
    byStep.set(chain.steps.length, []);
  }

  const groups: BranchGroup[] = [];
  for (const step of [...byStep.keys()].sort((left, right) => left - right)) {
    const chainStep = chain.steps[step - 1];
    if (chainStep === undefined) continue;
    const node =
      chain.nodes[step - 1] ??
      storedNodeAs<ThreadStepNode>("thread-step/1", chainStep.address, await store.objects.get(chainStep.address));
    if (node.fanOut === undefined) continue;
    const fanOut = storedNodeAs<FanOutNode>("fan-out/1", node.fanOut, await store.objects.get(node.fanOut));
    const branches: BranchView[] = [];
    for (const link of [...(byStep.get(step) ?? [])].sort((left, right) => left.index - right.index)) {
      const branch = await store.refs.getThread(link.thread);
      if (branch === null) continue;
      const planned = fanOut.branches.find((candidate) => candidate.key === link.key);
      branches.push(toBranchView(link, branch, planned ?? null));
    }
    groups.push({
      step,
      address: chainStep.address,
      kind: fanOut.kind,
      join: fanOut.join.role,
      policy: describePolicy(fanOut.join.policy),
      joinedAt: chain.steps.length > step ? step + 1 : null,
      branches,
    });
  }
  return groups;
}

/** A join policy as written: `all`, `all-settled`, `any`, `quorum:N`. */
export function describePolicy(policy: JoinPolicy): string {
  return typeof policy === "string" ? policy : `quorum:${policy.quorum}`;
}

function toBranchView(
  link: BranchLink,
  branch: ThreadRecord,
  planned: { role: string | null; workflow: string | null } | null,
): BranchView {
  const role = branch.branchOf?.role ?? planned?.role ?? null;
  // A role branch's chain goes through its parent's fan-out step: only the steps after it are its own.
  const sharesHistory = branch.branchOf !== undefined ? branch.branchOf.role !== null : role !== null;
  const steps = sharesHistory ? Math.max(0, branch.stepCount - (branch.branchOf?.step ?? link.step)) : branch.stepCount;
  return {
    key: link.key,
    thread: branch.id,
    status: branch.status,
    role,
    workflow: role === null ? (planned?.workflow ?? branch.workflow) : null,
    outcome: branch.outcome ?? null,
    error: errorOf(branch),
    steps,
    usage: branch.usage,
    head: branch.head,
  };
}

function errorOf(branch: ThreadRecord): BranchError | null {
  if (branch.failure !== undefined) return { code: branch.failure.code, message: branch.failure.message };
  if (branch.status === "cancelled") return { code: "thread-cancelled", message: "the branch was cancelled" };
  return null;
}

import type { EvalReportEntry, Lease, ThreadRecord, WorkflowEntry } from "@uwf/protocol";
import { parseAddress } from "../encoding/parse-address.ts";
import { EvalReportExistsError } from "../errors/eval-report-exists-error.ts";
import { ThreadExistsError } from "../errors/thread-exists-error.ts";
import { createMemoryLeaseMethods } from "../lease/create-memory-lease-methods.ts";
import type { BranchLink } from "../refs/branch-refs.ts";
import type { ChainIndex, ChainLink } from "../refs/chain-refs.ts";
import { createChangeSignal } from "../refs/change-signal.ts";
import {
  branchGroupsOf,
  checkBranchEntries,
  checkBranchStep,
  compareBranchLinks,
} from "../refs/check-branch-entries.ts";
import { checkChainIndex, checkChainIndexSteps } from "../refs/check-chain-index.ts";
import { checkChainLinks } from "../refs/check-chain-links.ts";
import { checkDeletedThreads } from "../refs/check-deleted-threads.ts";
import { checkEvalReportQuery } from "../refs/check-eval-report-query.ts";
import { checkListQuery } from "../refs/check-list-query.ts";
import { checkRecord } from "../refs/check-record.ts";
import { checkSince } from "../refs/check-since.ts";
import { checkThreadIdQuery } from "../refs/check-thread-id-query.ts";
import { headOfChainIndex } from "../refs/head-of-chain-index.ts";
import { listThreadRootsOf } from "../refs/list-thread-roots-of.ts";
import type { RefStore } from "../refs/ref-store.ts";
import type { DeletedThread } from "../refs/thread-refs.ts";
import { createMemoryScheduleMethods } from "./create-memory-schedule-methods.ts";
import { createMemorySearchAndOutputMethods } from "./create-memory-search-and-output-methods.ts";

/** Refs in Maps, with the SQLite store's semantics; records go in and come out as copies. */
export function createMemoryRefStore(): RefStore {
  const threads = new Map<string, ThreadRecord>();
  const workflows = new Map<string, WorkflowEntry>();
  const leases = new Map<string, Lease>();
  const chainLinks = new Map<string, ChainLink>();
  const chainIndexes = new Map<string, ChainIndex>();
  const deletedThreads = new Map<string, DeletedThread>();
  const evalReports = new Map<string, EvalReportEntry>();
  /** Branch links by their unique (parent, step, key). */
  const branchLinks = new Map<string, BranchLink>();
  const linksUnder = (parent: string, step?: number) =>
    [...branchLinks.values()]
      .filter((link) => link.parent === parent && (step === undefined || link.step === step))
      .sort(compareBranchLinks)
      .map((link) => ({ ...link }));
  const changes = createChangeSignal();
  const searchAndOutput = createMemorySearchAndOutputMethods(threads);

  return changes.signalWrites<RefStore>({
    ...searchAndOutput.methods,
    async createThread(record) {
      const checked = await checkRecord("threadRecord", record);
      if (threads.has(checked.id)) throw new ThreadExistsError(checked.id);
      threads.set(checked.id, checked);
    },
    async createThreads(records) {
      const checked = await Promise.all(records.map((record) => checkRecord("threadRecord", record)));
      const ids = new Set<string>();
      for (const record of checked) {
        if (threads.has(record.id) || ids.has(record.id)) throw new ThreadExistsError(record.id);
        ids.add(record.id);
      }
      for (const record of checked) threads.set(record.id, record);
    },
    getThread: async (id) => copyOrNull(threads.get(id)),
    async createBranches(entries) {
      const checked = await checkBranchEntries(entries);
      // Decided in full before anything is stored, so a record whose id exists changes nothing.
      const added = new Map<string, BranchLink>();
      const records = new Map<string, ThreadRecord>();
      for (const { link, record } of checked) {
        const key = branchLinkKey(link);
        if (branchLinks.has(key) || added.has(key)) continue;
        added.set(key, link);
        if (record === null) continue;
        if (threads.has(record.id) || records.has(record.id)) throw new ThreadExistsError(record.id);
        records.set(record.id, record);
      }
      for (const [key, link] of added) branchLinks.set(key, link);
      for (const record of records.values()) threads.set(record.id, record);
      return branchGroupsOf(checked.map((entry) => entry.link)).flatMap(({ parent, step }) => linksUnder(parent, step));
    },
    listBranches: async (parent, step) => linksUnder(parent, checkBranchStep(step)),
    listAllBranches: async function* () {
      yield* [...branchLinks.values()].sort(compareBranchLinks).map((link) => ({ ...link }));
    },
    async findThreadIds(prefix, limit) {
      const upper = checkThreadIdQuery(prefix, limit);
      return [...threads.keys()]
        .filter((id) => id.startsWith(upper))
        .sort()
        .slice(0, limit);
    },
    async listThreads(input) {
      const query = checkListQuery(input);
      const family = query.forksOf === undefined ? null : forksOf(threads, query.forksOf);
      const matching = [...threads.values()]
        .filter((thread) => query.status === undefined || thread.status === query.status)
        .filter((thread) => query.workflow === undefined || thread.workflow === query.workflow)
        .filter((thread) => query.outcome === undefined || thread.outcome?.status === query.outcome)
        .filter((thread) => query.start === undefined || thread.start === query.start)
        .filter((thread) => query.updatedSince === undefined || thread.updatedAt >= query.updatedSince)
        .filter((thread) => query.scheduledBy === undefined || thread.scheduledBy?.schedule === query.scheduledBy)
        .filter((thread) => family === null || family.has(thread.id))
        .filter((thread) => query.explorations !== false || thread.exploredBy === undefined)
        .filter(
          (thread) => query.dueBy === undefined || (thread.deadline !== undefined && thread.deadline <= query.dueBy),
        )
        .sort((left, right) => (left.id < right.id ? 1 : left.id > right.id ? -1 : 0));
      const offset = query.offset ?? 0;
      const page = matching.slice(offset, query.limit === undefined ? undefined : offset + query.limit);
      return { threads: page.map((thread) => structuredClone(thread)), total: matching.length };
    },
    async updateThread(id, expectedHead, update) {
      const head = parseAddress(expectedHead);
      const checked = await checkRecord("threadUpdate", update);
      const current = threads.get(id);
      if (current === undefined || current.head !== head) return false;
      const updated = { ...current, ...checked } as ThreadRecord & {
        failure?: unknown;
        outcome?: unknown;
        deadline?: unknown;
      };
      if (checked.failure === null) delete updated.failure;
      if (checked.outcome === null) delete updated.outcome;
      // A deadline belongs to the status it was set with: a new status without one removes it.
      if (checked.deadline === null || (checked.status !== undefined && checked.deadline === undefined))
        delete updated.deadline;
      threads.set(id, updated);
      return true;
    },
    listThreadRoots: async function* () {
      yield* listThreadRootsOf([...threads.values()]);
    },
    async deleteThread(id, expectedHead, deletedAt) {
      const head = parseAddress(expectedHead);
      if (threads.get(id)?.head !== head) return false;
      threads.delete(id);
      searchAndOutput.forgetThread(id);
      chainIndexes.delete(id);
      for (const [key, link] of branchLinks) if (link.parent === id) branchLinks.delete(key);
      deletedThreads.set(id, { id, head, deletedAt: deletedAt.toISOString() });
      return true;
    },
    async rememberDeletedThreads(entries) {
      for (const entry of checkDeletedThreads(entries)) {
        if (!deletedThreads.has(entry.id)) deletedThreads.set(entry.id, entry);
      }
    },
    listDeletedThreads: async (query = {}) =>
      [...deletedThreads.values()]
        .filter(
          (entry) =>
            query.deletedSince === undefined ||
            entry.deletedAt >= checkSince(query.deletedSince, "deleted thread query", "deletedSince"),
        )
        .sort((left, right) => (left.id < right.id ? -1 : 1))
        .map((entry) => ({ ...entry })),
    getWorkflow: async (name) => copyOrNull(workflows.get(name)),
    async setWorkflow(entry) {
      const checked = await checkRecord("workflowEntry", entry);
      workflows.set(checked.name, checked);
    },
    clock: async () => new Date(),
    ...createMemoryScheduleMethods(threads),
    listWorkflows: async () =>
      [...workflows.values()]
        .sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0))
        .map((entry) => ({ ...entry })),
    async saveEvalReport(entry) {
      const checked = await checkRecord("evalReportEntry", entry);
      if (evalReports.has(checked.id)) throw new EvalReportExistsError(checked.id);
      evalReports.set(checked.id, checked);
    },
    getEvalReport: async (id) => copyOrNull(evalReports.get(id)),
    async findEvalReportIds(prefix, limit) {
      const upper = checkThreadIdQuery(prefix, limit, "eval report id query");
      return [...evalReports.keys()]
        .filter((id) => id.startsWith(upper))
        .sort()
        .slice(0, limit);
    },
    async listEvalReports(input) {
      const query = checkEvalReportQuery(input);
      const matching = [...evalReports.values()]
        .filter((entry) => query.name === undefined || entry.name === query.name)
        .sort((left, right) => (left.id < right.id ? 1 : left.id > right.id ? -1 : 0));
      const offset = query.offset ?? 0;
      const page = matching.slice(offset, query.limit === undefined ? undefined : offset + query.limit);
      return { reports: page.map((entry) => ({ ...entry })), total: matching.length };
    },
    deleteEvalReport: async (id) => evalReports.delete(id),
    ...createMemoryLeaseMethods(threads, leases),
    async rememberChainLinks(links) {
      for (const link of checkChainLinks(links)) chainLinks.set(link.address, { ...link, bytes: link.bytes.slice() });
    },
    async recallChain(head) {
      const recalled: ChainLink[] = [];
      const seen = new Set<string>();
      for (let link = chainLinks.get(parseAddress(head)); link !== undefined; link = chainLinks.get(link.prev)) {
        if (seen.has(link.address)) break; // only a corrupted cache could hold a cycle
        seen.add(link.address);
        recalled.push({ ...link, bytes: link.bytes.slice() });
      }
      return recalled;
    },
    async forgetChainLinks(addresses) {
      for (const address of addresses) chainLinks.delete(parseAddress(address));
    },
    async rememberChainIndex(threadId, index) {
      chainIndexes.set(threadId, checkChainIndex(index));
    },
    async extendChainIndex(threadId, head, steps) {
      const checkedHead = parseAddress(head);
      const checkedSteps = checkChainIndexSteps(steps);
      const index = chainIndexes.get(threadId);
      if (index === undefined || headOfChainIndex(index) !== checkedHead) return false;
      chainIndexes.set(threadId, { start: index.start, steps: [...index.steps, ...checkedSteps] });
      return true;
    },
    async recallChainIndex(threadId, options = {}) {
      const index = copyOrNull(chainIndexes.get(threadId));
      if (index === null || options.details === true) return index;
      return { start: index.start, steps: index.steps.map(({ address, role }) => ({ address, role })) };
    },
    listChainIndexedThreads: async function* () {
      yield* [...chainIndexes.keys()].sort();
    },
    async forgetChainIndex(threadId) {
      chainIndexes.delete(threadId);
    },
    // Immediate: each write of this store signals once it has settled; there is no other process.
    watchChanges: async (onChange) => {
      const remove = changes.add(onChange);
      return async () => {
        remove();
      };
    },
  });
}

/** The ids of the threads forked from `thread`, and with `recursive` of their forks, at any depth. */
function forksOf(
  threads: ReadonlyMap<string, ThreadRecord>,
  { thread, recursive }: { thread: string; recursive?: boolean },
): Set<string> {
  const found = new Set<string>();
  let parents = new Set([thread]);
  while (parents.size > 0) {
    const children = [...threads.values()].filter(
      (child) => child.forkedFrom?.thread != null && parents.has(child.forkedFrom.thread) && !found.has(child.id),
    );
    for (const child of children) found.add(child.id);
    parents = recursive === true ? new Set(children.map((child) => child.id)) : new Set();
  }
  return found;
}

function branchLinkKey(link: BranchLink): string {
  return JSON.stringify([link.parent, link.step, link.key]);
}

function copyOrNull<Value>(value: Value | undefined): Value | null {
  return value === undefined ? null : structuredClone(value);
}

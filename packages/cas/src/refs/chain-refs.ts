import type { Address, Usage } from "@uwf/protocol";

/** A thread-step node as the ref store caches it for chain reads (see `ChainRefs.recallChain`). */
export interface ChainLink {
  address: Address;
  /** The address this step follows: its `prev`, or for a first step its start node. */
  prev: Address;
  /** The node's canonical bytes, which hash to `address`. */
  bytes: Uint8Array;
}

/**
 * A thread's chain as a step needs it up front: its start node and each step's address and role,
 * oldest first. The chain ends at its newest step's address (or at the start, with no steps).
 */
export interface ChainIndex {
  start: Address;
  steps: readonly ChainIndexStep[];
}

export interface ChainIndexStep {
  address: Address;
  role: string;
  /**
   * What `uwf diff` reports of the step, kept when the step commits, so a diff of two long threads reads
   * two rows instead of each step's node and agent run. Absent where not known (indexes written before
   * ref schema 24, or rebuilt by `uwf cas recover`): readers then read the step's nodes. Recalled only
   * when asked for (`recallChainIndex(id, { details: true })`), so a step does not pay for them.
   */
  details?: ChainStepDetails;
}

/** A step's facts that live in its nodes, as its chain index keeps them (see `ChainIndexStep.details`). */
export interface ChainStepDetails {
  /** The step node's `output` and `body`. */
  output: Address;
  body: Address;
  /** The agent run's `agent`. */
  agent: string;
  /** The step node's times. */
  startedAt: string;
  completedAt: string;
  /** The output's `$status` when it is a string, else null. */
  status: string | null;
  /** The agent run's `usage`, its keys in canonical (JCS) order. */
  usage: Usage | null;
}

export interface RecallChainIndexOptions {
  /** Recall each step's `details` too, where the index holds them. */
  details?: boolean;
}

/** Caches of chains (derived data, never a source of truth): step nodes' links and each thread's chain index. */
export interface ChainRefs {
  /**
   * Caches thread-step nodes, so that a long chain reads in one query instead of one object
   * read per step. A cache of immutable nodes, never a source of truth: a link is right for as
   * long as its node exists, readers re-hash what they recall, and `gc` forgets the links of the
   * nodes it deletes. A link cached again is rewritten, so a damaged one heals when re-read.
   */
  rememberChainLinks(links: readonly ChainLink[]): Promise<void>;
  /** The cached links from `head` back along `prev`, newest first, as far as they are cached; [] when `head` is not. */
  recallChain(head: Address): Promise<ChainLink[]>;
  /** Drops the cached links of these addresses; addresses not cached are ignored. */
  forgetChainLinks(addresses: readonly Address[]): Promise<void>;
  /**
   * Keeps a thread's chain index, replacing the one it had: one per thread, so a step on a long
   * thread knows its chain from one row. Derived data, never a source of truth: readers use it
   * only while it ends at the thread's head and agrees with the head node, and rebuild it from the
   * chain otherwise.
   */
  rememberChainIndex(threadId: string, index: ChainIndex): Promise<void>;
  /**
   * Appends steps to the thread's chain index if it ends at `head`, without rewriting it from the
   * caller; false, changing nothing, when it ends elsewhere or there is none (remember it whole then).
   */
  extendChainIndex(threadId: string, head: Address, steps: readonly ChainIndexStep[]): Promise<boolean>;
  /**
   * The thread's chain index as last remembered, or null when there is none (or it is unreadable); with
   * `details`, each step's details where it holds them (a damaged entry is left out, as if never kept).
   */
  recallChainIndex(threadId: string, options?: RecallChainIndexOptions): Promise<ChainIndex | null>;
  /** The ids of the threads that have a chain index (readable or not), in id order: what `verify` and `gc` check. */
  listChainIndexedThreads(): AsyncIterable<string>;
  /** Drops a thread's chain index, so its next step walks the chain and writes the index again; none is not an error. */
  forgetChainIndex(threadId: string): Promise<void>;
}

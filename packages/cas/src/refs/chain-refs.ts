import type { Address } from "@uwf/protocol";

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
  /** The thread's chain index as last remembered, or null when there is none (or it is unreadable). */
  recallChainIndex(threadId: string): Promise<ChainIndex | null>;
  /** The ids of the threads that have a chain index (readable or not), in id order: what `verify` and `gc` check. */
  listChainIndexedThreads(): AsyncIterable<string>;
  /** Drops a thread's chain index, so its next step walks the chain and writes the index again; none is not an error. */
  forgetChainIndex(threadId: string): Promise<void>;
}

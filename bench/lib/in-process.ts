/** Store throughput measured inside one process, through the public API of @uwf/cas (and @uwf/engine's chain index check). */
import { closeSync, fsyncSync, mkdirSync, openSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import {
  addressOfNode,
  canonicalizeJsonBytes,
  gcStore,
  hashBytes,
  openFileStore,
  verifyStore,
} from "../../packages/cas/src/index.ts";
import { dropDamagedChainIndexes, findChainIndexProblems } from "../../packages/engine/src/index.ts";
import type { Address } from "../../packages/protocol/src/index.ts";
import { round, summarize } from "./measure.ts";
import { syntheticStart, syntheticStep } from "./synthetic-nodes.ts";

export interface RateResult {
  count: number;
  ms: number;
  perSecond: number;
}

export interface ThroughputResult {
  /** Canonical encoding, hashing and JSON.stringify of the same nodes: µs per node. */
  encoding: { canonicalUs: number; hashUs: number; jsonStringifyUs: number; meanBytes: number };
  /** `putMany` without durability, in batches of `batchSize`. */
  writeBatch: RateResult & { batchSize: number };
  /** `get` of every node just written (re-hashed and parsed). */
  read: RateResult;
  /** One `putMany(..., { durable: true })` per step of six nodes, as `uwf step` commits. */
  durableSteps: {
    steps: number;
    nodesPerStep: number;
    medianMs: number;
    minMs: number;
    maxMs: number;
    nodesPerSecond: number;
    /**
     * The same kind of step committed one file at a time (six durable `put`s in sequence, each
     * its own write, fsync, rename and directory fsync), timed alternately with the batches.
     */
    perFileMedianMs: number;
  };
  /** The file system's own floor: creating a new file (write, no sync), and writing + fsyncing one. */
  fileSystem: { createUs: number; createAndFsyncMs: number };
}

/** Realistic step nodes (six per step) along one chain, with their addresses. */
export function buildStepNodes(steps: number, tag: string): { nodes: unknown[]; addresses: Address[] } {
  const nodes: unknown[] = [];
  const addresses: Address[] = [];
  const add = (node: unknown): Address => {
    const address = addressOfNode(node);
    nodes.push(node);
    addresses.push(address);
    return address;
  };
  const start = add(syntheticStart("CXVB66GJPAWQP", tag, "/work"));
  let prev: Address | null = null;
  for (let number = 1; number <= steps; number++) {
    const step = syntheticStep({ tag, number, start, prev, startedAt: new Date(), cwd: "/work" });
    const run = add(step.run({ prompt: add(step.prompt), reply: add(step.reply) }));
    prev = add(step.step({ output: add(step.output), body: add(step.body), run }));
  }
  return { nodes, addresses };
}

export async function measureThroughput(
  root: string,
  sizes: { writeSteps: number; durableSteps: number; fileSystemFiles: number; batchSize: number },
): Promise<ThroughputResult> {
  const { nodes, addresses } = buildStepNodes(sizes.writeSteps, "throughput");
  const encoding = measureEncoding(nodes);

  const store = await openFileStore(join(root, "throughput-home"));
  try {
    let began = Bun.nanoseconds();
    for (let offset = 0; offset < nodes.length; offset += sizes.batchSize) {
      await store.objects.putMany(nodes.slice(offset, offset + sizes.batchSize));
    }
    const writeMs = (Bun.nanoseconds() - began) / 1e6;

    began = Bun.nanoseconds();
    for (const address of addresses) await store.objects.get(address);
    const readMs = (Bun.nanoseconds() - began) / 1e6;

    const durable = buildStepNodes(sizes.durableSteps, "durable");
    const perFile = buildStepNodes(sizes.durableSteps, "durable-per-file");
    const stepMs: number[] = [];
    const perFileStepMs: number[] = [];
    // The start nodes first (as `uwf start` writes them), then each step both ways, in turns
    // that swap which goes first, so a slow moment of the disk weighs on both alike.
    await store.objects.put(durable.nodes[0], { durable: true });
    await store.objects.put(perFile.nodes[0], { durable: true });
    for (let offset = 1; offset < durable.nodes.length; offset += 6) {
      const batched = async () => {
        const stepBegan = Bun.nanoseconds();
        await store.objects.putMany(durable.nodes.slice(offset, offset + 6), { durable: true });
        stepMs.push((Bun.nanoseconds() - stepBegan) / 1e6);
      };
      const oneByOne = async () => {
        const stepBegan = Bun.nanoseconds();
        for (const node of perFile.nodes.slice(offset, offset + 6)) await store.objects.put(node, { durable: true });
        perFileStepMs.push((Bun.nanoseconds() - stepBegan) / 1e6);
      };
      if (offset % 12 === 1) {
        await batched();
        await oneByOne();
      } else {
        await oneByOne();
        await batched();
      }
    }
    const durableSummary = summarize(stepMs);
    const durableTotal = stepMs.reduce((total, value) => total + value, 0);

    return {
      encoding,
      writeBatch: { ...rate(nodes.length, writeMs), batchSize: sizes.batchSize },
      read: rate(addresses.length, readMs),
      durableSteps: {
        steps: stepMs.length,
        nodesPerStep: 6,
        medianMs: durableSummary.medianMs,
        minMs: durableSummary.minMs,
        maxMs: durableSummary.maxMs,
        nodesPerSecond: round((stepMs.length * 6 * 1000) / durableTotal, 0),
        perFileMedianMs: summarize(perFileStepMs).medianMs,
      },
      fileSystem: measureFileSystem(join(root, "file-system-floor"), sizes.fileSystemFiles, nodes),
    };
  } finally {
    await store.close();
  }
}

function measureEncoding(nodes: readonly unknown[]): ThroughputResult["encoding"] {
  let began = Bun.nanoseconds();
  const encoded = nodes.map((node) => canonicalizeJsonBytes(node));
  const canonicalNs = Bun.nanoseconds() - began;
  began = Bun.nanoseconds();
  for (const bytes of encoded) hashBytes(bytes);
  const hashNs = Bun.nanoseconds() - began;
  began = Bun.nanoseconds();
  for (const node of nodes) JSON.stringify(node);
  const stringifyNs = Bun.nanoseconds() - began;
  const totalBytes = encoded.reduce((total, bytes) => total + bytes.length, 0);
  return {
    canonicalUs: round(canonicalNs / 1000 / nodes.length),
    hashUs: round(hashNs / 1000 / nodes.length),
    jsonStringifyUs: round(stringifyNs / 1000 / nodes.length),
    meanBytes: round(totalBytes / nodes.length, 0),
  };
}

/** Plain node:fs, no store: what one file per node costs on this disk at best. */
function measureFileSystem(
  directory: string,
  files: number,
  nodes: readonly unknown[],
): ThroughputResult["fileSystem"] {
  const shards = 256;
  for (let shard = 0; shard < shards; shard++) mkdirSync(join(directory, String(shard)), { recursive: true });
  const payload = canonicalizeJsonBytes(nodes[1]);
  let began = Bun.nanoseconds();
  for (let index = 0; index < files; index++)
    writeFileSync(join(directory, String(index % shards), `${index}.json`), payload);
  const createNs = Bun.nanoseconds() - began;
  const syncFiles = Math.max(10, Math.floor(files / 100));
  began = Bun.nanoseconds();
  for (let index = 0; index < syncFiles; index++) {
    const descriptor = openSync(join(directory, String(index % shards), `synced-${index}.json`), "w");
    writeSync(descriptor, payload);
    fsyncSync(descriptor);
    closeSync(descriptor);
  }
  const syncNs = Bun.nanoseconds() - began;
  return { createUs: round(createNs / 1000 / files), createAndFsyncMs: round(syncNs / 1e6 / syncFiles, 3) };
}

export interface WholeStoreResult {
  verify: { ms: number; checked: number; problems: number; roots: number };
  gc: { ms: number; reachable: number; deleted: number; kept: number };
}

/**
 * `verify`, then `gc` with no grace period (so the orphaned runs are collected), on one store; each
 * with the engine's chain index check, as `uwf cas verify` and `uwf cas gc` run it.
 */
export async function measureWholeStore(home: string): Promise<WholeStoreResult> {
  const store = await openFileStore(home);
  try {
    let began = Bun.nanoseconds();
    const verified = await verifyStore(store);
    const chainIndexProblems = await findChainIndexProblems(store);
    const verifyMs = (Bun.nanoseconds() - began) / 1e6;
    began = Bun.nanoseconds();
    const collected = await gcStore(store, { now: new Date(), graceMs: 0 });
    await dropDamagedChainIndexes(store);
    const gcMs = (Bun.nanoseconds() - began) / 1e6;
    return {
      verify: {
        ms: round(verifyMs),
        checked: verified.checked,
        problems: verified.problems.length + chainIndexProblems.length,
        roots: verified.roots,
      },
      gc: { ms: round(gcMs), reachable: collected.reachable, deleted: collected.deleted.length, kept: collected.kept },
    };
  } finally {
    await store.close();
  }
}

function rate(count: number, ms: number): RateResult {
  return { count, ms: round(ms), perSecond: round((count * 1000) / ms, 0) };
}

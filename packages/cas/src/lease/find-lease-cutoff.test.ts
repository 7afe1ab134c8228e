import { describe, expect, it } from "bun:test";
import { createMemoryRefStore } from "../memory/create-memory-ref-store.ts";
import { sampleThreadId } from "../testing/sample-nodes.ts";
import { findLeaseCutoff, LEASE_CLOCK_MARGIN_MS, leaseMayStillCommit } from "./find-lease-cutoff.ts";
import { readProcessStart } from "./is-process-alive.ts";

const acquiredAt = new Date(Date.UTC(2026, 0, 1));
const later = new Date(acquiredAt.getTime() + 3_600_000);

async function cutoffWith(lease: { pid: number; host: string; processStart?: string | null }, now = later) {
  const refs = createMemoryRefStore();
  await refs.acquireLease(sampleThreadId(1), { ttlMs: 60_000, now: acquiredAt, ...lease });
  return findLeaseCutoff(refs, { now, host: "here" });
}

describe("findLeaseCutoff", () => {
  const counted = acquiredAt.getTime() - LEASE_CLOCK_MARGIN_MS;

  it("counts a lease of a live process of this host past its expiry, its start known or not", async () => {
    expect(await cutoffWith({ pid: process.pid, host: "here" })).toBe(counted);
    const processStart = readProcessStart(process.pid);
    expect(await cutoffWith({ pid: process.pid, host: "here", processStart })).toBe(counted);
  });

  it("never counts a lease of this host whose process died", async () => {
    expect(await cutoffWith({ pid: Bun.spawnSync(["true"]).pid, host: "here" })).toBeNull();
  });

  it.if(process.platform === "linux")(
    "never counts a lease of this host whose pid now names a process that started at another time",
    async () => {
      const processStart = `${readProcessStart(process.pid)}0`;
      expect(await cutoffWith({ pid: process.pid, host: "here", processStart })).toBeNull();
    },
  );

  it("counts a lease of another host until it expires, whatever its pid", async () => {
    const dead = Bun.spawnSync(["true"]).pid;
    expect(await cutoffWith({ pid: dead, host: "there" }, new Date(acquiredAt.getTime() + 30_000))).toBe(counted);
    expect(await cutoffWith({ pid: dead, host: "there" })).toBeNull();
  });
});

describe("leaseMayStillCommit", () => {
  const lease = async (holder: { pid: number; host: string }) => {
    const refs = createMemoryRefStore();
    const acquired = await refs.acquireLease(sampleThreadId(1), { ttlMs: 60_000, now: acquiredAt, ...holder });
    if (!acquired.acquired) throw new Error("expected the lease");
    return acquired.lease;
  };
  const soon = new Date(acquiredAt.getTime() + 1_000);

  it("holds a live holder of this host, and a holder elsewhere until its lease expires", async () => {
    expect(leaseMayStillCommit(await lease({ pid: process.pid, host: "here" }), { now: later, host: "here" })).toBe(
      true,
    );
    const remote = await lease({ pid: 4242, host: "elsewhere" });
    expect(leaseMayStillCommit(remote, { now: soon, host: "here" })).toBe(true);
    expect(leaseMayStillCommit(remote, { now: later, host: "here" })).toBe(false);
  });

  it("holds no row a crashed step left: a dead holder of this host, or the pid-0 row of an unsettled release", async () => {
    const dead = await lease({ pid: Bun.spawnSync(["true"]).pid, host: "here" });
    expect(leaseMayStillCommit(dead, { now: soon, host: "here" })).toBe(false);
    const unsettled = {
      ...(await lease({ pid: process.pid, host: "here" })),
      pid: 0,
      expiresAt: acquiredAt.toISOString(),
    };
    expect(leaseMayStillCommit(unsettled, { now: soon, host: "here" })).toBe(false);
    expect(leaseMayStillCommit(unsettled, { now: soon, host: "elsewhere" })).toBe(false);
  });
});

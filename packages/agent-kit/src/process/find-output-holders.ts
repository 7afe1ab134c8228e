import { readdirSync, readlinkSync } from "node:fs";

/** Descriptor targets that name one kernel object, which only the processes it was passed to hold. */
const CHANNEL_PATTERN = /^(socket|pipe):\[\d+\]$/;

/**
 * What a program's stdout and stderr are, as Linux names them in `/proc/PID/fd`: `socket:[1234]` for
 * the socket pairs Bun's spawn reads them through. Read right after the spawn, which returns once the
 * program's descriptors are in place, so that they can be looked for later in the processes that
 * inherited them. Empty where `/proc` cannot tell (another system, the program already gone); a file
 * or `/dev/null` is left out, since unrelated processes hold those too.
 */
export function readOutputChannels(pid: number): string[] {
  const channels = new Set<string>();
  for (const descriptor of [1, 2]) {
    const target = readLink(`/proc/${pid}/fd/${descriptor}`);
    if (target !== null && CHANNEL_PATTERN.test(target)) channels.add(target);
  }
  return [...channels];
}

/**
 * The processes other than this one that hold any of `channels` (from readOutputChannels) open: the
 * program and whatever it started that kept its stdout or stderr, those that left its process group
 * (`setsid`) included. Only processes whose `/proc/PID/fd` this user may read are seen; none where
 * there is no `/proc`. Each may exit while it is looked at: what is gone is left out.
 */
export function findOutputHolders(channels: readonly string[]): number[] {
  if (channels.length === 0) return [];
  const wanted = new Set(channels);
  const holders: number[] = [];
  for (const name of listDirectory("/proc")) {
    const pid = Number(name);
    if (!/^\d+$/.test(name) || pid === process.pid) continue;
    const descriptors = listDirectory(`/proc/${pid}/fd`);
    if (descriptors.some((descriptor) => wanted.has(readLink(`/proc/${pid}/fd/${descriptor}`) ?? ""))) {
      holders.push(pid);
    }
  }
  return holders;
}

function listDirectory(path: string): string[] {
  try {
    return readdirSync(path);
  } catch {
    // Gone, hidden (`hidepid`), another user's, or no /proc at all.
    return [];
  }
}

function readLink(path: string): string | null {
  try {
    return readlinkSync(path);
  } catch {
    return null;
  }
}

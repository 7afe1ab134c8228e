import { type CliEvent, cliEventSchema } from "@uwf/protocol";

export interface ParseEventsOptions {
  /** The process was killed: a last line with no newline after it may be cut short, and is left out. */
  killed?: boolean;
}

/** The NDJSON events a `--jsonl` run printed, each checked against cliEventSchema; blank lines skipped. */
export function parseEvents(stdout: string, options: ParseEventsOptions = {}): CliEvent[] {
  const lines = stdout.split("\n");
  if (options.killed === true) lines.pop(); // "" after the last full line, or a line the kill cut
  return lines.filter((line) => line.trim() !== "").map((line) => cliEventSchema.parse(JSON.parse(line)));
}

/** What a spawned `uwf … --jsonl` has printed so far, read as it comes; `until` waits for an event. */
export interface EventReader {
  /** Every event so far. */
  readonly events: CliEvent[];
  /** Resolves with the first event that matches (already printed or still to come); rejects if stdout ends first or after `timeoutMs`. */
  until(match: (event: CliEvent) => boolean, what: string, timeoutMs?: number): Promise<CliEvent>;
  /** Every event, once stdout has ended. */
  all(): Promise<CliEvent[]>;
}

/** Reads a `--jsonl` process's stdout as it comes, so a test can wait for the event it needs instead of sleeping. */
export function readEvents(stdout: ReadableStream<Uint8Array>): EventReader {
  const events: CliEvent[] = [];
  const waiters = new Set<() => void>();
  const ended = (async () => {
    const decoder = new TextDecoder();
    let pending = "";
    for await (const chunk of stdout) {
      pending += decoder.decode(chunk, { stream: true });
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) if (line.trim() !== "") events.push(cliEventSchema.parse(JSON.parse(line)));
      for (const wake of waiters) wake();
    }
    if (pending.trim() !== "") events.push(cliEventSchema.parse(JSON.parse(pending)));
    for (const wake of waiters) wake();
  })();
  let done = false;
  void ended.finally(() => {
    done = true;
  });
  return {
    events,
    until(match, what, timeoutMs = 30_000) {
      return new Promise<CliEvent>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`${what} did not happen within ${timeoutMs} ms; events: ${JSON.stringify(events)}`));
        }, timeoutMs);
        const check = () => {
          const found = events.find(match);
          if (found === undefined && !done) return;
          waiters.delete(check);
          clearTimeout(timer);
          if (found !== undefined) resolve(found);
          else reject(new Error(`stdout ended before ${what}; events: ${JSON.stringify(events)}`));
        };
        waiters.add(check);
        ended.then(check, reject);
        check();
      });
    },
    async all() {
      await ended;
      return events;
    },
  };
}

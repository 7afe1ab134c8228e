import type { LiveEvent } from "@uwf/protocol";

/** How many events a reconnecting page can catch up on; older ones get a `reset`. */
export const EVENT_BUFFER_SIZE = 1000;
/** A comment line this often keeps proxies and browsers from closing an idle stream. */
export const HEARTBEAT_MS = 15_000;

interface BufferedEvent {
  seq: number;
  event: LiveEvent;
}

interface Client {
  thread: string | null;
  /** Whether it asked for `step-output` events (`?output=1`): only pages that show a running step's output get them. */
  output: boolean;
  send(text: string): void;
  close(): void;
}

/**
 * The store's change feed as Server-Sent Events (`GET /api/events`): each event `id: BOOT-SEQ` and
 * `data: JSON`. The last EVENT_BUFFER_SIZE events are kept, so a page that reconnects with a
 * `Last-Event-ID` of this server's start gets what it missed; an id of another start, or one older than
 * the buffer, gets `event: reset` (the page fetches what it shows again). `?thread=ID` sends only that
 * thread's events; `?output=1` adds the `step-output` events (what running steps print), left out otherwise.
 */
export class EventHub {
  readonly bootId: string;
  private seq = 0;
  private readonly buffer: BufferedEvent[] = [];
  private readonly clients = new Set<Client>();
  private readonly heartbeat: ReturnType<typeof setInterval>;
  private closed = false;

  constructor(heartbeatMs: number = HEARTBEAT_MS) {
    this.bootId = Buffer.from(crypto.getRandomValues(new Uint8Array(6))).toString("hex");
    this.heartbeat = setInterval(() => {
      for (const client of this.clients) client.send(": heartbeat\n\n");
    }, heartbeatMs);
    this.heartbeat.unref?.();
  }

  publish(event: LiveEvent): void {
    if (this.closed) return;
    this.seq++;
    const buffered = { seq: this.seq, event };
    this.buffer.push(buffered);
    if (this.buffer.length > EVENT_BUFFER_SIZE) this.buffer.shift();
    for (const client of this.clients) {
      if (matches(client, event)) client.send(this.frame(buffered));
    }
  }

  /** An answer that streams the events from now on (after those missed since `lastEventId`) until the client goes or the hub closes. */
  respond(request: Request, thread: string | null, headers: Record<string, string>, output = false): Response {
    const encoder = new TextEncoder();
    let client: Client | undefined;
    const stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        let open = true;
        const current: Client = {
          thread,
          output,
          send: (text) => {
            if (!open) return;
            try {
              controller.enqueue(encoder.encode(text));
            } catch {
              current.close();
            }
          },
          close: () => {
            if (!open) return;
            open = false;
            this.clients.delete(current);
            try {
              controller.close();
            } catch {
              // Already closed by the client going away.
            }
          },
        };
        client = current;
        // The first bytes send the headers at once: the page knows it is connected.
        current.send(": connected\nretry: 1000\n\n");
        const missed = this.missedSince(request.headers.get("last-event-id"));
        if (missed === "reset") current.send("event: reset\ndata: {}\n\n");
        else for (const buffered of missed) if (matches(current, buffered.event)) current.send(this.frame(buffered));
        if (this.closed) current.close();
        else this.clients.add(current);
        request.signal.addEventListener("abort", () => current.close(), { once: true });
      },
      cancel: () => client?.close(),
    });
    return new Response(stream, {
      headers: {
        ...headers,
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-store",
        "x-accel-buffering": "no",
      },
    });
  }

  /** Ends every stream (the server stops); a page's EventSource will find the server gone. */
  close(): void {
    this.closed = true;
    clearInterval(this.heartbeat);
    for (const client of [...this.clients]) client.close();
  }

  private frame({ seq, event }: BufferedEvent): string {
    return `id: ${this.bootId}-${seq}\ndata: ${JSON.stringify(event)}\n\n`;
  }

  /** The buffered events after `lastEventId`, none when absent, or "reset" when it cannot be caught up from. */
  private missedSince(lastEventId: string | null): BufferedEvent[] | "reset" {
    if (lastEventId === null || lastEventId === "") return [];
    const match = /^([0-9a-f]+)-(\d+)$/.exec(lastEventId);
    if (match === null || match[1] !== this.bootId) return "reset";
    const seen = Number(match[2]);
    if (seen > this.seq) return "reset";
    const oldest = this.buffer[0]?.seq ?? this.seq + 1;
    // Events seen+1 … oldest-1 were dropped from the buffer: they cannot be sent.
    if (seen + 1 < oldest) return "reset";
    return this.buffer.filter((buffered) => buffered.seq > seen);
  }
}

function matches(client: Pick<Client, "thread" | "output">, event: LiveEvent): boolean {
  if (event.type === "step-output" && !client.output) return false;
  return client.thread === null || event.thread === client.thread;
}

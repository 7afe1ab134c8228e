/** One request a fake API server received. Secret headers are replaced by `[redacted]`; keys are never stored. */
export interface RecordedRequest {
  method: string;
  /** The path with its query, e.g. `/v1/messages?beta=true`. */
  path: string;
  headers: Record<string, string>;
  /** The body parsed as JSON, or its text when it is not JSON. */
  body: unknown;
  /** Whether the request carried an API key (in `x-api-key` or `authorization`). */
  hasApiKey: boolean;
  /** Whether the reply came from the scripted list (false: the default reply, an auth failure, a 404 or a rejection). */
  scripted: boolean;
  /** The HTTP status sent back. */
  status: number;
  /** In strict mode, why the request was refused with 400 (the real API's message), else null. */
  rejection: string | null;
}

/** One request as a fake's handler sees it; the handler's response's status is recorded for it. */
export interface FakeExchange<Reply> {
  request: Request;
  url: URL;
  body: unknown;
  /** The key the request carried, as the fake's `readApiKey` found it. */
  apiKey: string | null;
  /** Its entry in `requests`; the handler sets `rejection` when it refuses the request. */
  record: RecordedRequest;
  /** `req_fake_NNNN`, numbered by arrival, for the fake's request-id header. */
  requestId: string;
  /** The next scripted reply, if any is left; taking one marks the request as scripted. */
  takeScripted(): Reply | undefined;
}

export interface StartFakeApiServerOptions<Reply> {
  replies?: Reply[];
  /** Headers recorded as `[redacted]`. */
  secretHeaders: ReadonlySet<string>;
  /** The API key a request carries, as the real API reads it (null or empty: none). */
  readApiKey(headers: Headers): string | null;
  handle(exchange: FakeExchange<Reply>): Response;
}

export interface FakeApiServer<Reply> {
  /** `http://127.0.0.1:PORT`. */
  origin: string;
  /** Every request received, oldest first. */
  requests: RecordedRequest[];
  /** The requests that took a scripted reply, oldest first. */
  scriptedRequests(): RecordedRequest[];
  /** The requests refused in strict mode, oldest first. */
  rejectedRequests(): RecordedRequest[];
  enqueue(...replies: Reply[]): void;
  /** Scripted replies not sent yet. */
  remaining(): number;
  close(): Promise<void>;
}

/**
 * What the fake Anthropic and OpenAI servers share: `Bun.serve` on 127.0.0.1 with a free port, every
 * request recorded (body parsed, secrets redacted, the status sent back), and a queue of scripted
 * replies. Each fake's `handle` decides what the API answers.
 */
export function startFakeApiServer<Reply>(options: StartFakeApiServerOptions<Reply>): FakeApiServer<Reply> {
  const queue: Reply[] = [...(options.replies ?? [])];
  const requests: RecordedRequest[] = [];

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      const body = parseBody(await request.text());
      const headers: Record<string, string> = {};
      for (const [name, value] of request.headers.entries()) {
        headers[name] = options.secretHeaders.has(name) ? "[redacted]" : value;
      }
      const apiKey = options.readApiKey(request.headers);
      const record: RecordedRequest = {
        method: request.method,
        path: `${url.pathname}${url.search}`,
        headers,
        body,
        hasApiKey: apiKey !== null && apiKey !== "",
        scripted: false,
        status: 200,
        rejection: null,
      };
      requests.push(record);
      const takeScripted = (): Reply | undefined => {
        const next = queue.shift();
        record.scripted = next !== undefined;
        return next;
      };
      const requestId = `req_fake_${String(requests.length).padStart(4, "0")}`;
      const response = options.handle({ request, url, body, apiKey, record, requestId, takeScripted });
      record.status = response.status;
      return response;
    },
  });

  return {
    origin: `http://127.0.0.1:${server.port}`,
    requests,
    scriptedRequests: () => requests.filter((request) => request.scripted),
    rejectedRequests: () => requests.filter((request) => request.rejection !== null),
    enqueue: (...replies) => {
      queue.push(...replies);
    },
    remaining: () => queue.length,
    close: async () => {
      await server.stop(true);
    },
  };
}

/** A server-sent-events response that sends `chunks` (already encoded as `data: …\n\n` text) and ends. */
export function eventStreamResponse(chunks: readonly string[], headers: Record<string, string>): Response {
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const encoder = new TextEncoder();
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
  return new Response(stream, {
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", ...headers },
  });
}

function parseBody(text: string): unknown {
  if (text === "") return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

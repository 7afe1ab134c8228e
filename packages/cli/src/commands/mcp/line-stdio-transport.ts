import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { type JSONRPCMessage, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import { InternalError } from "@uwf/protocol";

/**
 * The longest message `uwf mcp` reads, in bytes: room for a 16 MiB prompt (the most the CLI takes)
 * written as JSON, with its escapes. The SDK's own stdio transport stops reading (and the server exits)
 * at 10 MiB; this one refuses the message and goes on.
 */
export const MAX_MCP_MESSAGE_BYTES = 64 * 1024 * 1024;

/** JSON-RPC 2.0's error codes for what cannot be read as a request. */
export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;

/** How much of a too-long line's start and end is kept, to find its id for the error. */
const KEPT_FOR_ID = 4096;

type RequestId = string | number;

export interface LineStdioTransportOptions {
  input?: NodeJS.ReadableStream;
  output?: NodeJS.WritableStream;
  maxMessageBytes?: number;
  /** Each message refused (answered with a JSON-RPC error, or dropped), in one line, for stderr. */
  onRefused?(problem: string): void;
}

/**
 * MCP over stdio, one JSON-RPC message a line, read by uwf itself in front of the SDK's server: a line
 * that is no JSON (an empty one too) is answered with a parse error (-32700); a batch, a message with no
 * `"jsonrpc": "2.0"`, an id that is neither a string nor a number, or any other message MCP does not
 * define, with an invalid-request error (-32600, carrying the id when it can be read); a line over
 * `maxMessageBytes` is skipped without being held and answered so. Each refusal is also reported
 * through `onRefused`; the transport never closes on bad input, so calls in flight go on.
 */
export class LineStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly input: NodeJS.ReadableStream;
  private readonly output: NodeJS.WritableStream;
  private readonly maxMessageBytes: number;
  private readonly onRefused: (problem: string) => void;
  /** The current line's chunks (none once it is known to be too long) and its length so far. */
  private chunks: Buffer[] = [];
  private lineBytes = 0;
  /** A too-long line's first and last bytes, for its id. */
  private head: Buffer | null = null;
  private tail: Buffer = Buffer.alloc(0);
  private started = false;
  private closed = false;

  constructor(options: LineStdioTransportOptions = {}) {
    this.input = options.input ?? process.stdin;
    this.output = options.output ?? process.stdout;
    this.maxMessageBytes = options.maxMessageBytes ?? MAX_MCP_MESSAGE_BYTES;
    this.onRefused = options.onRefused ?? (() => {});
  }

  async start(): Promise<void> {
    if (this.started) throw new InternalError("the stdio transport is already started");
    this.started = true;
    this.input.on("data", this.onData);
    this.input.on("error", this.onInputError);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off("data", this.onData);
    this.input.off("error", this.onInputError);
    if (this.input.listenerCount("data") === 0) this.input.pause();
    this.chunks = [];
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.output.once("drain", resolve);
    });
  }

  private readonly onInputError = (error: Error) => {
    this.onerror?.(error);
  };

  private readonly onData = (chunk: Buffer | string) => {
    let rest = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    for (let newline = rest.indexOf(0x0a); newline !== -1; newline = rest.indexOf(0x0a)) {
      this.take(rest.subarray(0, newline));
      this.endLine();
      rest = rest.subarray(newline + 1);
    }
    if (rest.length > 0) this.take(rest);
  };

  /** Adds part of the current line: held while the line is within the limit, else only its ends are kept. */
  private take(part: Buffer): void {
    if (part.length === 0) return;
    this.lineBytes += part.length;
    if (this.head === null && this.lineBytes <= this.maxMessageBytes) {
      this.chunks.push(part);
      return;
    }
    if (this.head === null) {
      const held = Buffer.concat([...this.chunks, part]);
      this.chunks = [];
      this.head = Buffer.from(held.subarray(0, KEPT_FOR_ID));
      this.tail = Buffer.from(held.subarray(-KEPT_FOR_ID));
      return;
    }
    this.tail = Buffer.from(Buffer.concat([this.tail, part]).subarray(-KEPT_FOR_ID));
  }

  private endLine(): void {
    const { head, tail, lineBytes } = this;
    const line = head === null ? Buffer.concat(this.chunks).toString("utf8") : null;
    this.chunks = [];
    this.lineBytes = 0;
    this.head = null;
    this.tail = Buffer.alloc(0);
    if (line === null) {
      const id = findIdAtEnds((head as Buffer).toString("utf8"), tail.toString("utf8"));
      const problem = `a message of ${lineBytes} bytes is over uwf mcp's limit of ${this.maxMessageBytes} bytes`;
      this.refuse(INVALID_REQUEST, id, problem);
      return;
    }
    this.readLine(line.endsWith("\r") ? line.slice(0, -1) : line);
  }

  private readLine(line: string): void {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      const why = line.trim() === "" ? "an empty line" : `no JSON (${(error as Error).message})`;
      this.refuse(PARSE_ERROR, null, `a line that is ${why}`);
      return;
    }
    if (Array.isArray(value)) {
      this.refuse(INVALID_REQUEST, null, "a batch (a JSON array): MCP takes one message a line");
      return;
    }
    if (value === null || typeof value !== "object") {
      this.refuse(INVALID_REQUEST, null, "a message that is no JSON object");
      return;
    }
    const object = value as Record<string, unknown>;
    const rawId = object.id;
    const id = typeof rawId === "string" || (typeof rawId === "number" && Number.isFinite(rawId)) ? rawId : null;
    if ("id" in object && rawId !== null && id === null) {
      this.refuse(INVALID_REQUEST, null, "a message whose id is neither a string nor a number");
      return;
    }
    if (object.jsonrpc !== "2.0") {
      this.refuse(INVALID_REQUEST, id, 'a message without "jsonrpc": "2.0"');
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      this.refuse(INVALID_REQUEST, id, "a message that is no JSON-RPC request, notification or response");
      return;
    }
    this.onmessage?.(parsed.data);
  }

  /** Answers what could not be read with its JSON-RPC error, and says so on stderr. */
  private refuse(code: number, id: RequestId | null, problem: string): void {
    this.onRefused(`refused ${problem}${id === null ? "" : ` (id ${JSON.stringify(id)})`}`);
    const message = code === PARSE_ERROR ? `Parse error: ${problem}` : `Invalid Request: ${problem}`;
    // JSON-RPC answers a request it cannot identify with id null, which the SDK's schema does not type.
    const answer = { jsonrpc: "2.0", id, error: { code, message } } as unknown as JSONRPCMessage;
    this.send(answer).catch((error: unknown) => this.onerror?.(error as Error));
  }
}

const ID = String.raw`("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)`;
/** `…,"jsonrpc":"2.0","id":7}` — where the SDK's clients write the id, after the params. */
const ID_AT_END = new RegExp(String.raw`"id"\s*:\s*${ID}\s*\}\s*$`);
/** `{"jsonrpc":"2.0","id":7,…` or `{"id":7,…` — where most other clients write it. */
const ID_AT_START = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID}`);

/** The id of a message too long to parse, read from where clients write it (its start or its end); null when neither has it. */
function findIdAtEnds(head: string, tail: string): RequestId | null {
  const found = ID_AT_END.exec(tail)?.[1] ?? ID_AT_START.exec(head)?.[1];
  if (found === undefined) return null;
  try {
    const id: unknown = JSON.parse(found);
    return typeof id === "string" || typeof id === "number" ? id : null;
  } catch {
    return null;
  }
}

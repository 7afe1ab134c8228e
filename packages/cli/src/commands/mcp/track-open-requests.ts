import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

type RequestId = string | number;

/**
 * Counts the client's requests the server has not answered yet, on the transport itself. Closing the
 * server aborts every request still in flight and drops its answer, so `uwf mcp` waits for `answered()`
 * first: a call that a closed stdin interrupted still gets its reply (an `interrupted` error) on stdout.
 * A request the client cancelled gets no answer, as MCP says, so it stops being waited for.
 * Call after `server.connect(transport)`, which sets the handlers this wraps.
 */
export function trackOpenRequests(transport: Transport): { answered(): Promise<void> } {
  const open = new Set<RequestId>();
  let allAnswered = Promise.withResolvers<void>();
  const settle = (id: RequestId) => {
    open.delete(id);
    if (open.size === 0) allAnswered.resolve();
  };
  const receive = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if ("method" in message && "id" in message) {
      if (open.size === 0) allAnswered = Promise.withResolvers<void>();
      open.add(message.id);
    } else if ("method" in message && message.method === "notifications/cancelled") {
      const id = (message.params as { requestId?: RequestId } | undefined)?.requestId;
      if (id !== undefined) settle(id);
    }
    receive?.(message, extra);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message: JSONRPCMessage, options) => {
    await send(message, options);
    if (!("method" in message) && "id" in message && message.id !== undefined) settle(message.id);
  };
  return {
    answered: () => (open.size === 0 ? Promise.resolve() : allAnswered.promise),
  };
}

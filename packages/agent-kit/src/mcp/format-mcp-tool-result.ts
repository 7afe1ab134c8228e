import type { ToolResult } from "../tools/agent-tool.ts";

/** Characters of one result the model gets; the rest is cut, as `run_command`'s output is. */
export const MCP_RESULT_LIMIT = 50_000;

interface ContentItem {
  type: string;
  text?: unknown;
  mimeType?: unknown;
  uri?: unknown;
  name?: unknown;
  resource?: { uri?: unknown; mimeType?: unknown; text?: unknown };
}

/**
 * An MCP `tools/call` result as the model sees it: the text content joined by newlines, every other
 * kind of content named in a line (an image or a binary resource is not sent: the APIs' tool results
 * here are text), the structured content when there is no other, and the server's `isError`.
 */
export function formatMcpToolResult(result: Readonly<Record<string, unknown>>): ToolResult {
  const items = Array.isArray(result.content) ? (result.content as ContentItem[]) : [];
  const parts = items.map(describeContent);
  // `toolResult` is how servers of the protocol's first version answered.
  const structured = result.structuredContent ?? result.toolResult;
  if (parts.length === 0 && structured !== undefined) parts.push(JSON.stringify(structured));
  let content = parts.join("\n");
  if (content === "") content = "(the tool returned no content)";
  if (content.length > MCP_RESULT_LIMIT) {
    content = `${content.slice(0, MCP_RESULT_LIMIT)}\n[… ${content.length - MCP_RESULT_LIMIT} more characters cut]`;
  }
  return { content, isError: result.isError === true };
}

function describeContent(item: ContentItem): string {
  switch (item.type) {
    case "text":
      return String(item.text ?? "");
    case "image":
    case "audio":
      return `[${item.type} content (${String(item.mimeType ?? "unknown type")}), not shown]`;
    case "resource": {
      const resource = item.resource ?? {};
      const label = `[resource ${String(resource.uri ?? "")}${resource.mimeType ? ` (${String(resource.mimeType)})` : ""}]`;
      return typeof resource.text === "string" ? `${label}\n${resource.text}` : `${label} binary content, not shown`;
    }
    case "resource_link":
      return `[resource link ${String(item.uri ?? "")}${item.name ? ` (${String(item.name)})` : ""}]`;
    default:
      return `[${String(item.type)} content, not shown]`;
  }
}

/**
 * The MCP SDK's stdio client, re-exported for bench/ (bench/lib/replay-otel-mcp-benchmarks.ts), which lies
 * outside every package that depends on the SDK and so cannot resolve it by name itself.
 */
export { Client } from "@modelcontextprotocol/sdk/client/index.js";
export { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

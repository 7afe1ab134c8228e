/**
 * Test support, not part of uwf's runtime: `@uwf/agents/test`.
 * A local fake of the Anthropic Messages API and builders for its scripted replies, and a place to launch agents in.
 */
export {
  AGENT_RUN_THREAD,
  type AgentRunFixture,
  type CreateAgentRunFixtureOptions,
  createAgentRunFixture,
} from "./agent-run-fixture.ts";
export type { FakeMessage } from "./build-fake-message.ts";
export {
  type CheckMessagesRequestOptions,
  checkMessagesRequest,
  MAX_CACHE_BREAKPOINTS,
} from "./check-messages-request.ts";
export { PROPERTY_KEY_PATTERN, TOOL_NAME_PATTERN } from "./check-request-tools.ts";
export { estimateFakeInputTokens } from "./estimate-fake-input-tokens.ts";
export {
  DEFAULT_FAKE_CONTEXT_WINDOW,
  type FakeAnthropicServer,
  type RecordedRequest,
  type StartFakeAnthropicServerOptions,
  startFakeAnthropicServer,
} from "./fake-anthropic-server.ts";
export {
  FAKE_ERROR_STATUS,
  type FakeContentBlock,
  type FakeErrorReply,
  type FakeErrorType,
  type FakeMessageReply,
  type FakeReply,
  type FakeRequestView,
  type FakeStopReason,
  type FakeStreamErrorReply,
  type FakeToolCall,
  type FakeUsage,
  fakeErrorReply,
  fakeMaxTokensReply,
  fakeRefusalReply,
  fakeStreamErrorReply,
  fakeTextReply,
  fakeToolUseReply,
  type ScriptedReply,
} from "./fake-replies.ts";
export { everythingServerSpec, filesystemServerSpec, isProcessRunning, processesWithCwd } from "./mcp-test-servers.ts";

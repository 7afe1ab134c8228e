/**
 * Test support, not part of uwf's runtime: `@uwf/agent-kit/test`.
 * Local fakes of the Anthropic Messages API and the OpenAI Chat Completions API, builders for their
 * scripted replies, and a place to launch agents in.
 */
export {
  AGENT_RUN_THREAD,
  type AgentRunFixture,
  type CreateAgentRunFixtureOptions,
  createAgentRunFixture,
} from "./agent-run-fixture.ts";
export type { FakeCompletion } from "./build-fake-completion.ts";
export type { FakeMessage } from "./build-fake-message.ts";
export {
  CHAT_FUNCTION_NAME_PATTERN,
  CHAT_REQUEST_FIELDS,
  type ChatRequestProblem,
  checkChatRequest,
} from "./check-chat-request.ts";
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
  FAKE_CHAT_ERRORS,
  type FakeChatErrorCode,
  type FakeChatErrorReply,
  type FakeChatFinishReason,
  type FakeChatMessageReply,
  type FakeChatReply,
  type FakeChatStreamErrorReply,
  type FakeChatToolCall,
  type FakeChatUsage,
  fakeChatErrorReply,
  fakeChatStreamErrorReply,
  fakeChatTextReply,
  fakeChatToolCallReply,
  type ScriptedChatReply,
} from "./fake-chat-replies.ts";
export {
  DEFAULT_FAKE_OPENAI_CONTEXT_WINDOW,
  estimateChatTokens,
  type FakeOpenaiServer,
  type StartFakeOpenaiServerOptions,
  startFakeOpenaiServer,
} from "./fake-openai-server.ts";
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

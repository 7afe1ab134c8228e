/**
 * Test support, not part of uwf's runtime: `@uwf/agent-kit/testing`.
 * A local fake of the Anthropic Messages API and builders for its scripted replies.
 */
export {
  type FakeAnthropicServer,
  type FakeMessage,
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
  type FakeToolCall,
  type FakeUsage,
  fakeErrorReply,
  fakeTextReply,
  fakeToolUseReply,
  type ScriptedReply,
} from "./fake-replies.ts";

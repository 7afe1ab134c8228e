import { describe, expect, it } from "bun:test";
import * as testing from "./index.ts";

describe("the @uwf/agent-kit/test entry", () => {
  it("exports exactly the public names, so the surface changes on purpose", () => {
    expect(Object.keys(testing).sort()).toEqual([
      "AGENT_RUN_THREAD",
      "CHAT_FUNCTION_NAME_PATTERN",
      "CHAT_REQUEST_FIELDS",
      "DEFAULT_FAKE_CONTEXT_WINDOW",
      "DEFAULT_FAKE_OPENAI_CONTEXT_WINDOW",
      "FAKE_CHAT_ERRORS",
      "FAKE_ERROR_STATUS",
      "MAX_CACHE_BREAKPOINTS",
      "PROPERTY_KEY_PATTERN",
      "TOOL_NAME_PATTERN",
      "checkChatRequest",
      "checkMessagesRequest",
      "createAgentRunFixture",
      "estimateChatTokens",
      "estimateFakeInputTokens",
      "everythingServerSpec",
      "fakeChatErrorReply",
      "fakeChatStreamErrorReply",
      "fakeChatTextReply",
      "fakeChatToolCallReply",
      "fakeErrorReply",
      "fakeMaxTokensReply",
      "fakeRefusalReply",
      "fakeStreamErrorReply",
      "fakeTextReply",
      "fakeToolUseReply",
      "filesystemServerSpec",
      "isProcessRunning",
      "processesWithCwd",
      "startFakeAnthropicServer",
      "startFakeOpenaiServer",
    ]);
  });
});

import { afterEach, beforeEach, expect } from "bun:test";
import type { RecordedRequest } from "@uwf/agent-kit/test";
import { createTempHome, currentWhileTestRuns, type TempHome } from "./temp-home.ts";

/** What both strict fakes (`startFakeAnthropicServer`, `startFakeOpenaiServer`) offer that this needs. */
interface StrictFakeApi {
  rejectedRequests(): RecordedRequest[];
  close(): Promise<void>;
}

/**
 * A fresh temp home and a fresh fake model API (`start()`) for each test of the file. After each test
 * the fake is closed and the home removed, and the test fails if the fake refused a request: in strict
 * mode (the default) a refusal means uwf sent what the real API would refuse. The objects returned
 * stand for the current test's home and fake.
 */
export function useTempHomeWithFakeApi<Server extends StrictFakeApi>(
  start: () => Server,
): { temp: TempHome; server: Server; replaceServer(next: () => Server): Promise<void> } {
  let temp: TempHome | undefined;
  let server: Server | undefined;
  beforeEach(() => {
    temp = createTempHome();
    server = start();
  });
  afterEach(async () => {
    const rejected = server?.rejectedRequests().map((request) => request.rejection);
    await server?.close();
    temp?.cleanup();
    temp = undefined;
    server = undefined;
    expect(rejected).toEqual([]);
  });
  return {
    temp: currentWhileTestRuns(() => temp, "the temp home"),
    server: currentWhileTestRuns(() => server, "the fake API"),
    /** For a test that needs the fake started otherwise (a smaller context window): closes this test's fake and starts `next`. */
    replaceServer: async (next) => {
      await server?.close();
      server = next();
    },
  };
}

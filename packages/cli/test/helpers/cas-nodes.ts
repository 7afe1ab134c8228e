import { expect } from "bun:test";
import { agentRunNodeSchema, textNodeSchema, threadStepNodeSchema, verifyReportSchema } from "@uwf/protocol";
import type { TempHome } from "./temp-home.ts";

/** The node at `address` in the temp home's store, read with `uwf cas get` (which must succeed). */
export async function getNode(temp: TempHome, address: string): Promise<unknown> {
  const result = await temp.uwf(["cas", "get", address]);
  expect(result.exitCode).toBe(0);
  return result.json();
}

/** The agent-run node of the thread step at `stepAddress`. */
export async function runOfStep(temp: TempHome, stepAddress: string) {
  const step = threadStepNodeSchema.parse(await getNode(temp, stepAddress));
  return agentRunNodeSchema.parse(await getNode(temp, step.run));
}

/** The text of the text node at `address` (a reply, a prompt, a body). */
export async function textOfNode(temp: TempHome, address: string): Promise<string> {
  return textNodeSchema.parse(await getNode(temp, address)).text;
}

/** `uwf cas verify --json` finds nothing wrong in the temp home's store: exit 0, no problems. */
export async function expectStoreVerifies(temp: TempHome): Promise<void> {
  const verified = await temp.uwf(["cas", "verify", "--json"]);
  expect(verified.exitCode).toBe(0);
  expect(verifyReportSchema.parse(verified.json()).problems).toEqual([]);
}

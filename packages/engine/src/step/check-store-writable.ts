import type { ObjectStore } from "@uwf/cas";
import { asEnvironmentError } from "../errors/environment-error.ts";
import type { StoredPrompt } from "./stored-prompt.ts";

/**
 * Before a step's agent starts: writes the step's prompt node, durably, as the step will once the
 * agent is done. A store that cannot take it (a read-only file system, a full disk, no permission)
 * fails the step before the agent runs, so no reply is lost to it and nothing is spent. The ref
 * store has been written already: the step's lease is taken before this.
 */
export async function checkStoreWritable(objects: ObjectStore, prompt: StoredPrompt): Promise<void> {
  try {
    await objects.putMany(prompt.nodes, { durable: true });
  } catch (error) {
    throw asEnvironmentError(error, "the store cannot be written, so no agent was started") ?? error;
  }
}

import type { Address } from "@uwf/protocol";
import type { ObjectStore, PutManyOptions } from "../objects/object-store.ts";
import { createSampleNodes } from "./sample-nodes.ts";

export interface SampleStepInput {
  /** The thread's start node. */
  start: Address;
  /** The thread's head the step follows (its start node before the first step). */
  head: Address;
  /** The texts of the step's prompt and body, and its output fields. */
  prompt: string;
  output: Record<string, unknown>;
  body: string;
  /** Fields of the step node to set besides the links (its times, say). */
  step?: Record<string, unknown>;
}

export interface SampleStep {
  /** The step node's address: the thread's new head. */
  head: Address;
  /** Every node the step wrote: prompt, output, body, agent run and step. */
  addresses: Address[];
}

let samples: Record<string, unknown> | undefined;

/**
 * Writes the nodes of one step as a stepper would, linked to `head`: the prompt, output and body,
 * the sample agent run (with this prompt, no attempts and no transcript) and the sample step node.
 * The thread's record is left to the caller.
 */
export async function putSampleStep(
  objects: ObjectStore,
  input: SampleStepInput,
  options?: PutManyOptions,
): Promise<SampleStep> {
  samples ??= createSampleNodes();
  const [prompt, output, body] = (await objects.putMany(
    [
      { type: "text/1", text: input.prompt },
      { type: "output/1", fields: input.output },
      { type: "text/1", text: input.body },
    ],
    options,
  )) as [Address, Address, Address];
  const run = await objects.put(
    { ...(samples["agent-run/1"] as object), prompt, attempts: [], transcript: null },
    options,
  );
  const head = await objects.put(
    {
      ...(samples["thread-step/1"] as object),
      start: input.start,
      prev: input.head === input.start ? null : input.head,
      output,
      body,
      run,
      ...input.step,
    },
    options,
  );
  return { head, addresses: [prompt, output, body, run, head] };
}

import type { Address, ThreadRecord } from "@uwf/protocol";
import type { ChainIndexStep } from "../refs/chain-refs.ts";
import type { Store } from "../store.ts";
import { putSampleStep } from "./put-sample-step.ts";
import { createSampleNodes, sampleThreadRecord } from "./sample-nodes.ts";

export interface SampleThread {
  record: ThreadRecord;
  /** Every node the thread reaches: what gc must keep. */
  reachable: Set<Address>;
  /** Its steps, oldest first, as its chain index names them. */
  steps: ChainIndexStep[];
}

/**
 * A thread as a stepper would leave it: workflow, start, then `steps` steps each with its
 * own output, body and run, linked by prev, and a record whose head is the last step.
 */
export async function writeSampleThread(store: Store, id: string, steps: number): Promise<SampleThread> {
  const samples = createSampleNodes();
  const reachable = new Set<Address>();
  const put = async (node: unknown) => {
    const address = await store.objects.put(node);
    reachable.add(address);
    return address;
  };
  const workflow = await put(samples["workflow/1"]);
  const start = await put({ ...(samples["thread-start/1"] as object), workflow, prompt: `task of ${id}` });
  let head = start;
  const indexSteps: ChainIndexStep[] = [];
  for (let index = 0; index < steps; index++) {
    const step = await putSampleStep(store.objects, {
      start,
      head,
      prompt: `prompt ${index} of ${id}`,
      output: { index, id },
      body: `body ${index} of ${id}`,
    });
    for (const address of step.addresses) reachable.add(address);
    head = step.head;
    indexSteps.push({ address: head, role: (samples["thread-step/1"] as { role: string }).role });
  }
  const record = sampleThreadRecord({ id, start, head, workflowAddress: workflow, stepCount: steps });
  await store.refs.createThread(record);
  return { record, reachable, steps: indexSteps };
}

import type { ChainStepDetails, ObjectStore } from "@uwf/cas";
import { type Address, addUsage, type OutputNode, type TextNode, type Usage, ZERO_USAGE } from "@uwf/protocol";
import type { ChainStep } from "../history/read-chain.ts";
import { storedNodeAs } from "../history/stored-node.ts";
import type { ThreadHistory } from "../history/thread-history.ts";

/** What a diff compares of a step. The body is read only for `--bodies` (else null), the output's fields only when compared. */
export interface ComparedStep {
  address: Address;
  role: string;
  agent: string;
  /** The output node's address: two steps with the same one report the same fields. */
  output: Address;
  /** The output's `$status` when it is a string, else null. */
  status: string | null;
  body: string | null;
  startedAt: string;
  completedAt: string;
  usage: Usage | null;
}

/** Time and usage added up over some steps. */
export interface Sums {
  durationMs: number;
  usage: Usage;
}

/**
 * Two chains' steps as a diff reads them: from their chain indexes' details where they have them (one row
 * a thread, read with the chain), else from each step's node and agent run. Outputs are read by address,
 * once each, and only for the steps whose fields are compared.
 */
export class ComparedSteps {
  private readonly objects: ObjectStore;
  private readonly outputs = new Map<Address, Record<string, unknown>>();

  constructor(objects: ObjectStore) {
    this.objects = objects;
  }

  /** The steps from `from` to the newest, oldest first, as much of each as a diff compares. */
  async read(history: ThreadHistory, from: number, withBodies: boolean): Promise<ComparedStep[]> {
    const steps: ComparedStep[] = [];
    for (let index = from; index < history.length; index++) {
      const { address, role, details } = history.steps[index] as ChainStep;
      if (details !== undefined) {
        steps.push({
          address,
          role,
          agent: details.agent,
          output: details.output,
          status: details.status,
          body: withBodies ? await this.text(details.body) : null,
          startedAt: details.startedAt,
          completedAt: details.completedAt,
          usage: details.usage,
        });
        continue;
      }
      const node = await history.node(index);
      const run = await history.run(index);
      const fields = await history.output(index);
      this.outputs.set(node.output, fields);
      const status = fields.$status;
      steps.push({
        address,
        role: node.role,
        agent: run.agent,
        output: node.output,
        status: typeof status === "string" ? status : null,
        body: withBodies ? await history.body(index) : null,
        startedAt: node.startedAt,
        completedAt: node.completedAt,
        usage: run.usage,
      });
    }
    return steps;
  }

  /** A step's output fields; {} for no step. */
  async fields(step: ComparedStep | undefined): Promise<Record<string, unknown>> {
    if (step === undefined) return {};
    let fields = this.outputs.get(step.output);
    if (fields === undefined) {
      fields = storedNodeAs<OutputNode>("output/1", step.output, await this.objects.get(step.output)).fields;
      this.outputs.set(step.output, fields);
    }
    return fields;
  }

  /** The `$status` of the step at `index`: from its details (either chain's, for a common step), else its output. */
  async status(history: ThreadHistory, index: number, other?: readonly ChainStep[]): Promise<string | null> {
    const details = detailsAt(history, index, other);
    if (details !== undefined) return details.status;
    const status = (await history.output(index)).$status;
    return typeof status === "string" ? status : null;
  }

  /** Time and usage of the first `count` steps: their details (either chain's), else each one's node and agent run. */
  async sum(history: ThreadHistory, count: number, other?: readonly ChainStep[]): Promise<Sums> {
    const sums: Sums = { durationMs: 0, usage: ZERO_USAGE };
    for (let index = 0; index < count; index++) {
      const details = detailsAt(history, index, other);
      if (details !== undefined) {
        addStep(sums, details.startedAt, details.completedAt, details.usage);
        continue;
      }
      const node = await history.node(index);
      const run = await history.run(index);
      addStep(sums, node.startedAt, node.completedAt, run.usage);
    }
    return sums;
  }

  private async text(address: Address): Promise<string> {
    return storedNodeAs<TextNode>("text/1", address, await this.objects.get(address)).text;
  }
}

export function addStep(sums: Sums, startedAt: string, completedAt: string, usage: Usage | null): void {
  sums.durationMs += Date.parse(completedAt) - Date.parse(startedAt);
  if (usage !== null) sums.usage = addUsage(sums.usage, usage);
}

/** The details of a step the two chains share: this chain's, or the other's for the same step. */
function detailsAt(
  history: ThreadHistory,
  index: number,
  other: readonly ChainStep[] | undefined,
): ChainStepDetails | undefined {
  const step = history.steps[index] as ChainStep;
  if (step.details !== undefined) return step.details;
  const same = other?.[index];
  return same?.address === step.address ? same.details : undefined;
}

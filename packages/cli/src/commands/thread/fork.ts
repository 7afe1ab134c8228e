import { parseAddress } from "@uwf/cas";
import type { ForkResult } from "@uwf/protocol";
import type { CommandContext } from "../../context.ts";
import { forkThread } from "../../engine/fork-thread.ts";
import { readInputFile } from "../../read-input-file.ts";

export interface ForkCommandOptions {
  hash: string;
  output?: string;
}

export async function forkCommand(options: ForkCommandOptions, context: CommandContext) {
  const address = parseAddress(options.hash);
  const replacementReply =
    options.output === undefined
      ? undefined
      : {
          file: options.output,
          text: readInputFile(options.output, { cwd: context.cwd, label: `--output ${options.output}` }),
        };
  const store = await context.openStore();
  const record = await forkThread({ store, address, replacementReply, now: context.now, newId: context.newId });
  const result: ForkResult = { thread: record.id, forkedFrom: address, head: record.head };
  return { result, format: (value: ForkResult) => value.thread };
}

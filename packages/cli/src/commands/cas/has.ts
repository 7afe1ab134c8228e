import { AddressPrefixNotFoundError, resolveAddress } from "@uwf/cas";
import { EXIT_FAILED, EXIT_OK } from "../../exit-codes.ts";
import type { CommandContext } from "../../pipeline/command-context.ts";

/** Exit 0 when the node is stored, 1 when it is not (for a prefix: when no node starts with it): for scripts. */
export async function casHasCommand(options: { address: string }, context: CommandContext) {
  const store = await context.openStore({ create: false });
  let address = options.address.toUpperCase();
  let present = false;
  try {
    address = await resolveAddress(store.objects, options.address);
    present = await store.objects.has(address);
  } catch (error) {
    if (!(error instanceof AddressPrefixNotFoundError)) throw error;
  }
  return {
    result: { address, present },
    format: (value: { present: boolean }) => (value.present ? "yes" : "no"),
    exitCode: present ? EXIT_OK : EXIT_FAILED,
  };
}

import { verifyStore } from "@uwf/cas";
import { findChainIndexProblems } from "@uwf/engine";
import type { CommandContext } from "../../context.ts";
import { EXIT_FAILED, EXIT_OK } from "../../exit-codes.ts";

/**
 * Re-hashes every object, checks every thread root and every chain index, counts what nothing
 * reaches by kind and lists leftovers: the only command besides gc that reads the whole store.
 */
export async function casVerifyCommand(context: CommandContext) {
  const store = await context.openStore({ create: false });
  const report = await verifyStore(store);
  for (const { threadId, address, message } of await findChainIndexProblems(store)) {
    const repair = "it is derived data: `uwf cas gc` drops it, and the thread's next step rebuilds it";
    report.problems.push({ kind: "chain-index", address, thread: threadId, message: `${message}; ${repair}` });
  }
  report.ok = report.problems.length === 0;
  const problems = report.problems.length;
  return {
    result: report,
    format: (value: typeof report) => {
      const { total, byKind } = value.unreachable;
      const kinds = Object.entries(byKind).map(([kind, count]) => `${count} ${kind}`);
      return [
        ...value.problems.map((problem) => `${problem.kind} ${problem.address}: ${problem.message}`),
        ...value.leftovers.map((leftover) =>
          leftover.kind === "set-aside"
            ? `leftover object set aside by an interrupted gc: ${leftover.name} (still read; \`uwf cas gc\` puts it back)`
            : `leftover temporary file ${leftover.name} (removed by \`uwf cas gc\`)`,
        ),
        ...(total === 0
          ? []
          : [`${total} unreachable object(s), which gc deletes once older than its grace: ${kinds.join(", ")}`]),
        `${value.checked} object(s) checked, ${value.problems.length} problem(s)`,
      ].join("\n");
    },
    exitCode: problems === 0 ? EXIT_OK : EXIT_FAILED,
  };
}

import { z } from "zod";

/**
 * A thread's step counts, one rule for every view (docs/workflows.md#counting-steps): `steps` numbered
 * in its chain = `inherited` (shared with the thread it was forked from, or a `role:` branch's parent
 * steps up to its fan-out) + `replaced` (a counterfactual fork's replaced reply: written at fork time,
 * no agent ran) + `taken` (the steps this thread ran itself). `branchSteps` are the steps its branches
 * took, nested fan-outs included; `budgetSteps` = `taken` + `branchSteps` is what `max_steps` counts.
 */
export const threadCountsSchema = z
  .object({
    steps: z.number().int().nonnegative(),
    inherited: z.number().int().nonnegative(),
    replaced: z.number().int().nonnegative(),
    taken: z.number().int().nonnegative(),
    branchSteps: z.number().int().nonnegative(),
    budgetSteps: z.number().int().nonnegative(),
  })
  .strict();
export type ThreadCounts = z.infer<typeof threadCountsSchema>;

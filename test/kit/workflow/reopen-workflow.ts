import { join } from "node:path";

/**
 * A worker's one step ends the thread; `$START`'s resume edge continues it after it ended. The engine's
 * tests (scenario export, replay) and the CLI's (`uwf scenario export` of a resumed thread) run it.
 */
export const REOPEN_WORKFLOW = join(import.meta.dir, "reopen.yaml");

import { createMachineContext } from "../../src/commands/ui/command-backend.ts";
import type { TempHome } from "./temp-home.ts";

/** The context `uwf ui`'s backend runs commands with, on the temp home's store; nothing aborts it. */
export function tempHomeMachineContext(temp: TempHome): ReturnType<typeof createMachineContext> {
  return createMachineContext(
    {
      home: temp.home,
      storeFlag: undefined,
      cwd: temp.work,
      env: { ...process.env, UWF_HOME: temp.home },
      newId: () => (require("ulid") as typeof import("ulid")).ulid(),
    },
    new AbortController().signal,
  );
}

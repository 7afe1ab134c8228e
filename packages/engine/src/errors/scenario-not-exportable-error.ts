import { UwfError } from "@uwf/protocol";

/** `uwf scenario export` of a thread the scripted agent could not play back step for step. */
export class ScenarioNotExportableError extends UwfError<"scenario-not-exportable"> {
  static override readonly code = "scenario-not-exportable" as const;
  static override readonly name = "ScenarioNotExportableError";

  constructor(thread: string, problem: string) {
    super(`thread ${thread} cannot be exported as a scenario: ${problem}`, { data: { thread, problem } });
  }
}

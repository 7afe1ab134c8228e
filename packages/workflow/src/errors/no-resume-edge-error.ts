import { UwfError } from "@uwf/protocol";

/** `uwf resume` on an ended thread needs a `$START` edge with status `resume` (DESIGN §4). */
export class NoResumeEdgeError extends UwfError<"no-resume-edge"> {
  static override readonly code = "no-resume-edge" as const;
  static override readonly name = "NoResumeEdgeError";

  constructor(workflow: string) {
    super(
      `workflow ${workflow} has no $START resume edge, so an ended thread cannot be resumed (add "resume: { role: ..., prompt: ... }" under graph.$START)`,
      { data: { workflow } },
    );
  }
}

import { type TriedTransition, UwfError } from "@uwf/protocol";

export type { TriedTransition };

/** No edge of the node holds: the step fails and the thread is unchanged (DESIGN §2). */
export class NoTransitionError extends UwfError<"no-transition"> {
  static override readonly code = "no-transition" as const;
  static override readonly name = "NoTransitionError";

  constructor(from: string, tried: TriedTransition[], status: unknown) {
    const list = tried.length === 0 ? "it has no edges" : `tried ${tried.map(describeTried).join(", ")}`;
    const statusNote = status === undefined ? "" : `; $status was ${JSON.stringify(status)}`;
    super(`no transition from ${from} holds (${list}${statusNote})`, {
      data: { role: from, tried: tried.map((edge) => ({ ...edge })), status: status ?? null },
    });
  }
}

function describeTried(edge: TriedTransition): string {
  const tests = [
    edge.condition === null ? null : `condition ${edge.condition}`,
    edge.status === null ? null : `status ${edge.status}`,
  ].filter((test) => test !== null);
  return `${tests.length === 0 ? "always" : tests.join(" and ")} → ${edge.role}`;
}

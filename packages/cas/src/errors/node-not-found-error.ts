import { UwfError } from "@uwf/protocol";

export class NodeNotFoundError extends UwfError<"node-not-found"> {
  static override readonly code = "node-not-found" as const;
  static override readonly name = "NodeNotFoundError";

  constructor(address: string) {
    super(`node ${address} is not in the store`, { data: { address } });
  }
}

import { UwfError } from "@uwf/protocol";

export class NodeNotFoundError extends UwfError {
  static readonly code = "node-not-found" as const;

  constructor(address: string) {
    super(NodeNotFoundError.code, `node ${address} is not in the store`, { data: { address } });
    this.name = "NodeNotFoundError";
  }
}

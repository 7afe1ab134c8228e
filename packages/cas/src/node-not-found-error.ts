import { UwfError } from "@uwf/protocol";

export class NodeNotFoundError extends UwfError {
  constructor(address: string) {
    super("node-not-found", `node ${address} is not in the store`, { data: { address } });
    this.name = "NodeNotFoundError";
  }
}

import { addressOfNode, type ObjectStore } from "@uwf/cas";
import type { Address } from "@uwf/protocol";

/**
 * Collects the nodes of one step so they are written together with one durable
 * sync: addresses are computed up front, so parents can name children before any write.
 */
export class NodeBatch {
  private readonly nodes: unknown[] = [];

  add(node: unknown): Address {
    this.nodes.push(node);
    return addressOfNode(node);
  }

  addText(text: string): Address {
    return this.add({ type: "text/1", text });
  }

  async write(objects: ObjectStore): Promise<void> {
    if (this.nodes.length > 0) await objects.putMany(this.nodes, { durable: true });
    this.nodes.length = 0;
  }
}

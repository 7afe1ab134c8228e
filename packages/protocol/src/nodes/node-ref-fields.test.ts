import { describe, expect, it } from "bun:test";
import { z } from "zod";
import { addressSchema } from "../ids/address.ts";
import { ADDRESS_PATTERN } from "../ids/address-pattern.ts";
import { listSchemaAddressPaths } from "../workflow/schema-address-paths.ts";
import { NODE_SCHEMAS } from "./node-kinds.ts";
import { NODE_REF_FIELDS } from "./node-ref-fields.ts";
import { listNodeRefs } from "./node-refs.ts";
import { agentRunNodeSchema, threadStepNodeSchema } from "./nodes.ts";

const sorted = (paths: readonly string[]): string[] => [...paths].sort();

describe("NODE_REF_FIELDS", () => {
  it("has an entry for exactly the node kinds that have a schema", () => {
    expect(sorted(Object.keys(NODE_REF_FIELDS))).toEqual(sorted(Object.keys(NODE_SCHEMAS)));
  });

  for (const [kind, schema] of Object.entries(NODE_SCHEMAS)) {
    it(`names every address field of the ${kind} schema, so gc follows them all`, () => {
      expect(sorted(NODE_REF_FIELDS[kind] ?? [])).toEqual(sorted(listSchemaAddressPaths(schema)));
    });
  }
});

describe("listSchemaAddressPaths", () => {
  it("finds the address fields of a step, nullable ones included", () => {
    expect(listSchemaAddressPaths(threadStepNodeSchema)).toEqual([
      "start",
      "prev",
      "output",
      "body",
      "run",
      "fanOut",
      "joined",
      "answer",
    ]);
  });

  it("finds addresses inside arrays of objects", () => {
    expect(listSchemaAddressPaths(agentRunNodeSchema)).toEqual([
      "prompt",
      "attempts[].request",
      "attempts[].reply",
      "transcript",
    ]);
  });

  it("catches an address field added to a node schema that the ref list does not name", () => {
    const grown = agentRunNodeSchema.extend({
      summary: addressSchema.optional(),
      notes: z.array(z.object({ body: addressSchema.nullable() })).optional(),
    });
    const paths = listSchemaAddressPaths(grown);
    expect(paths).toContain("summary");
    expect(paths).toContain("notes[].body");
    expect(sorted(paths)).not.toEqual(sorted(NODE_REF_FIELDS["agent-run/1"] ?? []));
    const node = { type: "agent-run/1", summary: "2W53JPNXF556H", notes: [{ body: "B1XRH20GCX3FB" }] };
    expect(listNodeRefs(node)).toEqual([]);
  });

  it("recognises an address checked against the pattern directly, through unions, records and lazies", () => {
    const schema = z.object({
      either: z.union([z.string().regex(ADDRESS_PATTERN), z.number()]),
      byName: z.record(z.string(), addressSchema),
      later: z.lazy(() => addressSchema.default("2W53JPNXF556H")),
      plain: z.string().regex(/^x$/),
    });
    expect(listSchemaAddressPaths(schema)).toEqual(["either", "byName{}", "later"]);
  });

  it("refuses a schema kind it cannot look inside", () => {
    expect(() => listSchemaAddressPaths(z.object({ when: z.date() }))).toThrow('"date" schema at "when"');
  });
});

import { describe, expect, it } from "bun:test";
import type { JsonSchemaObject } from "@uwf/protocol";
import { MAX_YAML_ALIASES, MAX_YAML_NESTING } from "@uwf/workflow";
import { InvalidReplyError } from "../errors/invalid-reply-error.ts";
import { extractFrontmatter, safeExtractFrontmatter } from "./extract-frontmatter.ts";

/**
 * A hang guard, not a measurement: refusing an alias bomb takes milliseconds, expanding its hundred million
 * strings would not end in time (or at all).
 */
const HANG_GUARD_MS = 20_000;

const reviewerSchema: JsonSchemaObject = {
  type: "object",
  properties: {
    approved: { type: "boolean" },
    comments: { type: "string" },
    severity: { type: "string", enum: ["low", "high"] },
  },
  required: ["approved"],
};

const writerSchema: JsonSchemaObject = {
  type: "object",
  properties: {
    summary: { type: "string" },
    files: { type: "array", items: { type: "string" } },
    meta: { type: "object", properties: { author: { type: "string" } }, required: ["author"] },
  },
  required: ["summary"],
  additionalProperties: false,
};

function problemOf(reply: string, schema: JsonSchemaObject | undefined): string {
  const result = safeExtractFrontmatter(reply, schema);
  if (result.success) throw new Error(`expected a problem, got ${JSON.stringify(result.value)}`);
  return result.error.problem;
}

describe("extractFrontmatter", () => {
  it("returns the validated fields and the markdown body", () => {
    expect(extractFrontmatter("---\napproved: true\ncomments: fine\n---\n\nLooks good.\n", reviewerSchema)).toEqual({
      fields: { approved: true, comments: "fine" },
      body: "Looks good.",
    });
  });

  it("keeps only the schema's fields, $status and reason", () => {
    const reply = "---\napproved: false\nmood: grumpy\n$status: rejected\nreason: n/a\n---\nbody";
    expect(extractFrontmatter(reply, reviewerSchema)).toMatchObject({
      fields: { approved: false, $status: "rejected", reason: "n/a" },
    });
  });

  it("allows $status even when the schema forbids other properties", () => {
    expect(extractFrontmatter("---\nsummary: s\n$status: done\n---\n", writerSchema)).toMatchObject({
      fields: { summary: "s", $status: "done" },
    });
  });

  it("tolerates a BOM, blank lines and a stray fence", () => {
    const reply = "\uFEFF\n\n```yaml\n---\napproved: true\n---\n```\nbody";
    expect(extractFrontmatter(reply, reviewerSchema)).toEqual({
      fields: { approved: true },
      body: "body",
    });
  });

  it("names the field, the expected type and the value that came", () => {
    expect(problemOf("---\napproved: yes\n---\n", reviewerSchema)).toBe(
      'field "approved": expected boolean, got string "yes"',
    );
  });

  it("names a missing required field", () => {
    expect(problemOf("---\ncomments: hm\n---\n", reviewerSchema)).toBe('missing required field "approved"');
  });

  it("lists the allowed values of an enum", () => {
    expect(problemOf("---\napproved: true\nseverity: mid\n---\n", reviewerSchema)).toBe(
      'field "severity": expected one of "low", "high", got string "mid"',
    );
  });

  it("reports every problem at once, with nested paths", () => {
    expect(problemOf("---\nfiles: [a, 2]\nmeta: {}\n---\n", writerSchema)).toBe(
      'missing required field "summary"; field "files[1]": expected string, got number 2; missing required field "meta.author"',
    );
  });

  it("explains a reply without frontmatter", () => {
    expect(problemOf("I fixed it.", reviewerSchema)).toBe(
      `no YAML frontmatter found: the reply must start with a '---' line, but it starts with "I fixed it."`,
    );
  });

  it("reports invalid YAML with its line in the reply", () => {
    expect(problemOf("\n---\napproved: true\ncomments: [unclosed\n---\n", reviewerSchema)).toStartWith(
      "the frontmatter is not valid YAML (line 4 of the reply):",
    );
  });

  describe("limits: a reply over one is an invalid reply, never another error", () => {
    const anySchema: JsonSchemaObject = { type: "object", properties: { comments: {} } };

    it(
      "refuses an alias bomb without expanding it",
      () => {
        const lines = ['comments: &a ["x", "x", "x", "x", "x", "x", "x", "x", "x", "x"]'];
        for (const [index, name] of ["b", "c", "d", "e", "f", "g", "h"].entries()) {
          lines.push(`${name}: &${name} [${Array(10).fill(`*${"abcdefgh"[index]}`).join(", ")}]`);
        }
        expect(problemOf(`---\n${lines.join("\n")}\n---\nbody\n`, anySchema)).toBe(
          `the frontmatter is refused: aliases expand too much (more than ${MAX_YAML_ALIASES} alias expansions)`,
        );
      },
      HANG_GUARD_MS,
    );

    it(`accepts ${MAX_YAML_NESTING} levels of nesting and refuses one more, with the line`, () => {
      const nested = (levels: number) =>
        `---\napproved: true\ncomments: ${"[".repeat(levels)}${"]".repeat(levels)}\n---\n`;
      expect(safeExtractFrontmatter(nested(MAX_YAML_NESTING - 1), anySchema).success).toBe(true);
      expect(problemOf(nested(MAX_YAML_NESTING), anySchema)).toBe(
        `the frontmatter is refused (line 3 of the reply): mappings and lists nest deeper than ${MAX_YAML_NESTING} levels`,
      );
    });

    it("refuses nesting deep enough to overflow the parser with a short problem", () => {
      const problem = problemOf(`---\ncomments: ${"[".repeat(100_000)}${"]".repeat(100_000)}\n---\n`, anySchema);
      expect(problem).toStartWith(
        "the frontmatter is not valid YAML (line 2 of the reply): mappings and lists nest deeper",
      );
      expect(problem.length).toBeLessThan(200);
    });

    it("refuses a value that contains itself", () => {
      expect(problemOf("---\ncomments: &a [*a]\n---\n", anySchema)).toBe(
        `the frontmatter is refused: mappings and lists nest deeper than ${MAX_YAML_NESTING} levels once expanded`,
      );
    });
  });

  it("reports frontmatter that is not a mapping", () => {
    expect(problemOf("---\n- a\n- b\n---\n", reviewerSchema)).toBe(
      'the frontmatter must be YAML "field: value" lines, got an array of 2 items',
    );
  });

  it("rejects values JSON cannot hold", () => {
    expect(
      problemOf("---\napproved: true\ncomments: .inf\n---\n", { properties: { approved: {}, comments: {} } }),
    ).toBe('field "comments": expected a finite number, got Infinity');
  });

  it("rejects a lone surrogate in a field, in a nested name, or in the reply's text, escaped in the problem", () => {
    const schema = { properties: { comments: {}, notes: {} } };
    const lone = "half of a UTF-16 surrogate pair without its other half";
    expect(problemOf('---\ncomments: "a \\ud800 b"\n---\n', schema)).toBe(
      `field "comments" holds \\ud800, ${lone}, which JSON cannot carry (the YAML escape "\\ud800" makes one): write the character itself, or leave it out`,
    );
    expect(problemOf('---\nnotes: { "k\\udc00": 1 }\n---\n', schema)).toStartWith(
      'field "notes.k\\udc00" has a name that holds \\udc00, ',
    );
    expect(problemOf("---\ncomments: fine\n---\nbody \ud83d end\n", schema)).toBe(
      `the reply holds \\ud83d at line 4, column 6: ${lone}, which JSON and UTF-8 cannot carry; write the character itself, or leave it out`,
    );
    // A whole pair, escaped or not, is a character like any other.
    expect(extractFrontmatter('---\ncomments: "\\ud83d\\ude00 😀"\n---\n', schema).fields).toEqual({
      comments: "😀 😀",
    });
  });

  it("refuses integers beyond 2^53 instead of rounding them, and keeps the exact ones as numbers", () => {
    const schema = { properties: { id: {}, ids: {} } };
    expect(problemOf("---\nid: 12345678901234567891\n---\n", schema)).toBe(
      'field "id": 12345678901234567891 is beyond 2^53, so JSON cannot carry it exactly; quote it to keep it as text',
    );
    expect(problemOf("---\nids: [1, -9007199254740993]\n---\n", schema)).toBe(
      'field "ids[1]": -9007199254740993 is beyond 2^53, so JSON cannot carry it exactly; quote it to keep it as text',
    );
    expect(extractFrontmatter("---\nid: 9007199254740991\nids: [1, 2.5, {n: 3}]\n---\n", schema).fields).toEqual({
      id: 9007199254740991,
      ids: [1, 2.5, { n: 3 }],
    });
  });

  it("accepts $SUSPEND with a reason and lifts the required fields", () => {
    expect(extractFrontmatter("---\n$status: $SUSPEND\nreason: Which database?\n---\n", reviewerSchema)).toEqual({
      fields: { $status: "$SUSPEND", reason: "Which database?" },
      body: "",
    });
  });

  it("holds a suspending reply of a role with ask: to its ask, required fields and all, and keeps its fields", () => {
    const asking = {
      ...reviewerSchema,
      "x-uwf-ask": {
        type: "object",
        properties: { question: { type: "string" }, options: { type: "array", items: { type: "string" } } },
        required: ["question"],
      },
    };
    expect(
      extractFrontmatter("---\n$status: $SUSPEND\nreason: Unsure\nquestion: Which?\noptions: [a, b]\n---\n", asking),
    ).toEqual({
      fields: { $status: "$SUSPEND", reason: "Unsure", question: "Which?", options: ["a", "b"] },
      body: "",
    });
    expect(problemOf("---\n$status: $SUSPEND\nreason: Unsure\n---\n", asking)).toBe(
      'missing required field "question" (with $status: $SUSPEND)',
    );
    // Any other reply is held to the role's own fields, as before.
    expect(problemOf("---\nquestion: Which?\n---\n", asking)).toBe('missing required field "approved"');
  });

  it("still checks the types of fields given with $SUSPEND", () => {
    expect(problemOf("---\n$status: $SUSPEND\nreason: why\napproved: maybe\n---\n", reviewerSchema)).toBe(
      'field "approved": expected boolean, got string "maybe"',
    );
  });

  it("refuses $status: $timeout, which only uwf records (when nobody answers a suspension in time)", () => {
    expect(problemOf("---\n$status: $timeout\n---\n", reviewerSchema)).toBe(
      '"$status: $timeout" is recorded by uwf when nobody answers a suspension in time; a reply cannot send it',
    );
  });

  it("rejects $SUSPEND without a string reason", () => {
    expect(problemOf("---\n$status: $SUSPEND\n---\n", reviewerSchema)).toBe(
      '"$status: $SUSPEND" needs a "reason" field: a string saying why you stop and what you need, got nothing',
    );
    expect(problemOf("---\n$status: $SUSPEND\nreason: 42\n---\n", reviewerSchema)).toContain("got number 42");
  });

  it("accepts a plain markdown reply from a role that declares no fields", () => {
    expect(extractFrontmatter("Just prose.\n", undefined)).toEqual({ fields: {}, body: "Just prose." });
    expect(extractFrontmatter("---\n---\nProse.", { type: "object" })).toEqual({
      fields: {},
      body: "Prose.",
    });
  });

  it("validates equal schemas given as fresh objects", () => {
    for (let index = 0; index < 200; index++) {
      expect(safeExtractFrontmatter(`---\napproved: ${index % 2 === 0}\n---\n`, { ...reviewerSchema }).success).toBe(
        true,
      );
    }
  });
});

describe("extractFrontmatter and safeExtractFrontmatter", () => {
  it("throw and return the same InvalidReplyError, which keeps the raw reply and the problem", () => {
    const reply = "---\napproved: yes\n---\n";
    const problem = 'field "approved": expected boolean, got string "yes"';
    const safe = safeExtractFrontmatter(reply, reviewerSchema);
    expect(safe.success).toBe(false);
    let thrown: unknown;
    try {
      extractFrontmatter(reply, reviewerSchema);
    } catch (error) {
      thrown = error;
    }
    for (const error of [thrown, safe.success ? null : safe.error]) {
      expect(error).toBeInstanceOf(InvalidReplyError);
      const invalid = error as InvalidReplyError;
      expect(invalid.code).toBe("invalid-reply");
      expect(invalid.problem).toBe(problem);
      expect(invalid.reply).toBe(reply);
      expect(invalid.message).toBe(`invalid reply: ${problem}`);
      expect(invalid.toJSON().data).toEqual({ problem });
    }
  });

  it("return the fields and body of a valid reply", () => {
    const value = { fields: { approved: true }, body: "ok" };
    expect(extractFrontmatter("---\napproved: true\n---\nok", reviewerSchema)).toEqual(value);
    expect(safeExtractFrontmatter("---\napproved: true\n---\nok", reviewerSchema)).toEqual({ success: true, value });
  });
});

describe("extractFrontmatter with per-status branches", () => {
  const verdictSchema: JsonSchemaObject = {
    type: "object",
    properties: { note: { type: "string" } },
    oneOf: [
      { properties: { $status: { const: "rejected" }, why: { type: "string" } }, required: ["$status", "why"] },
      { properties: { $status: { const: "approved" }, score: { type: "integer" } }, required: ["$status"] },
    ],
  };

  it("keeps every field the matching branch allows", () => {
    const result = extractFrontmatter(
      "---\n$status: rejected\nwhy: no tests\nnote: n\nstray: x\n---\nBody",
      verdictSchema,
    );
    expect(result).toEqual({
      fields: { $status: "rejected", why: "no tests", note: "n" },
      body: "Body",
    });
  });

  it("names the problem in the branch the reply's $status chose", () => {
    expect(problemOf("---\n$status: rejected\n---\n", verdictSchema)).toBe(
      'missing required field "why" (with $status: rejected)',
    );
    expect(problemOf("---\n$status: approved\nscore: ten\n---\n", verdictSchema)).toBe(
      'field "score": expected integer, got string "ten" (with $status: approved)',
    );
  });

  it("lists the statuses that have a branch when the reply's has none", () => {
    expect(problemOf("---\n$status: maybe\n---\n", verdictSchema)).toBe(
      'field "$status": expected one of "rejected", "approved", got string "maybe"',
    );
    expect(problemOf("---\nnote: hi\n---\n", verdictSchema)).toBe(
      'missing required field "$status" (one of "rejected", "approved")',
    );
  });

  it("lets $SUSPEND leave out every branch's required fields but still checks types", () => {
    expect(safeExtractFrontmatter("---\n$status: $SUSPEND\nreason: which repo?\n---\n", verdictSchema).success).toBe(
      true,
    );
    expect(safeExtractFrontmatter("---\n$status: $SUSPEND\nreason: r\nscore: x\n---\n", verdictSchema).success).toBe(
      false,
    );
  });
});

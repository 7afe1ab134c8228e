import { describe, expect, it } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { JsonSchemaObject, WorkflowNode } from "@uwf/protocol";
import { safeLoadWorkflowFile } from "../load/load-workflow-file.ts";
import { validateOutputFields } from "../schema/validate-output-fields.ts";
import { checkFrontmatterSchemas } from "./check-frontmatter-schemas.ts";
import { enforcedFormats } from "./enforced-formats.ts";

/** For every format the run-time check knows: a value it accepts and one it rejects. */
const SAMPLES: Record<string, { valid: string; invalid: string }> = {
  date: { valid: "2026-11-21", invalid: "2026-02-30" },
  time: { valid: "10:00:00Z", invalid: "25:00:00Z" },
  "date-time": { valid: "2026-11-21T10:00:00Z", invalid: "2026-11-21" },
  duration: { valid: "P3DT4H", invalid: "3 days" },
  uri: { valid: "https://example.com/a?b=c", invalid: "example.com/a" },
  "uri-reference": { valid: "../a/b#c", invalid: "a b" },
  "uri-template": { valid: "/users/{id}", invalid: "/users/{id" },
  url: { valid: "https://example.com/a", invalid: "example" },
  email: { valid: "ada@example.com", invalid: "ada.example.com" },
  hostname: { valid: "example.com", invalid: "-example.com" },
  ipv4: { valid: "192.0.2.1", invalid: "192.0.2.256" },
  ipv6: { valid: "2001:db8::1", invalid: "2001:db8::g" },
  regex: { valid: "^a+$", invalid: "(" },
  uuid: { valid: "123e4567-e89b-12d3-a456-426614174000", invalid: "123e4567" },
  "json-pointer": { valid: "/a/b~1c", invalid: "a/b" },
  "json-pointer-uri-fragment": { valid: "#/a/b", invalid: "/a/b" },
  "relative-json-pointer": { valid: "1/a", invalid: "/a" },
};

/** Formats of JSON Schema drafts, OpenAPI and Object.prototype's names that the run-time check does not enforce. */
const NOT_ENFORCED = [
  ...["idn-email", "idn-hostname", "iri", "iri-reference"],
  ...["int32", "int64", "float", "double", "byte", "binary", "password"],
  ...["toString", "constructor", "hasOwnProperty", "__proto__", "valueOf"],
];

const ROOT = join(import.meta.dir, "../../../..");

function workflowWith(frontmatter: JsonSchemaObject): WorkflowNode {
  return {
    type: "workflow/1",
    name: "formats",
    description: "",
    roles: { reporter: { goal: "Report.", frontmatter } },
    conditions: {},
    graph: { $START: [{ role: "reporter", condition: null, prompt: "Go." }], reporter: [{ role: "$END" }] },
  } as unknown as WorkflowNode;
}

const withFormat = (format: string): JsonSchemaObject => ({
  type: "object",
  properties: { value: { type: "string", format } },
});

/** Every `format` in a schema, with the path of the schema that holds it (draft-07's subschema keywords). */
function formatsIn(schema: unknown, path: string[] = []): { path: string[]; format: unknown }[] {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return [];
  const fields = schema as Record<string, unknown>;
  const found = "format" in fields ? [{ path, format: fields.format }] : [];
  // A schema, or a list of them (`items` as a tuple, `allOf`, ...).
  const below = (inner: unknown, at: string[]) =>
    Array.isArray(inner) ? inner.flatMap((item, index) => formatsIn(item, [...at, `${index}`])) : formatsIn(inner, at);
  const single = ["additionalItems", "additionalProperties", "contains", "if", "then", "else", "not"];
  for (const keyword of [...single, "propertyNames", "items", "allOf", "anyOf", "oneOf"]) {
    found.push(...below(fields[keyword], [...path, keyword]));
  }
  for (const keyword of ["properties", "patternProperties", "definitions", "$defs", "dependencies"]) {
    const map = fields[keyword];
    if (typeof map !== "object" || map === null) continue;
    for (const [name, inner] of Object.entries(map)) found.push(...below(inner, [...path, keyword, name]));
  }
  return found;
}

/** Every workflow in examples/ and under a package's test fixtures that loads, with its file. */
function loadableWorkflows(): { file: string; workflow: WorkflowNode }[] {
  const files = [
    ...readdirSync(join(ROOT, "examples")).map((name) => join(ROOT, "examples", name)),
    ...readdirSync(join(ROOT, "packages")).flatMap((pkg) => {
      const fixtures = join(ROOT, "packages", pkg, "test/fixtures");
      try {
        return readdirSync(fixtures, { recursive: true, encoding: "utf8" }).map((name) => join(fixtures, name));
      } catch {
        return [];
      }
    }),
  ].filter((file) => /\.ya?ml$/.test(file));
  return files.flatMap((file) => {
    const loaded = safeLoadWorkflowFile(file);
    return loaded.success ? [{ file, workflow: loaded.value.workflow }] : [];
  });
}

describe("enforcedFormats", () => {
  it("is exactly the run-time check's format table, each with samples here", () => {
    expect([...enforcedFormats()].sort()).toEqual(Object.keys(SAMPLES).sort());
  });

  it("is listed in docs/workflows.md", () => {
    const docs = readFileSync(join(ROOT, "docs/workflows.md"), "utf8");
    for (const format of enforcedFormats())
      expect({ format, listed: docs.includes(`\`${format}\``) }).toEqual({ format, listed: true });
  });

  it("accepts at load time each format the run-time check enforces, and the run-time check enforces it", () => {
    for (const format of enforcedFormats()) {
      const schema = withFormat(format);
      expect({ format, issues: checkFrontmatterSchemas(workflowWith(schema)) }).toEqual({ format, issues: [] });
      const sample = SAMPLES[format] as { valid: string; invalid: string };
      expect({ format, result: validateOutputFields({ value: sample.valid }, schema) }).toEqual({
        format,
        result: { success: true },
      });
      const invalid = validateOutputFields({ value: sample.invalid }, schema);
      expect({ format, success: invalid.success }).toEqual({ format, success: false });
    }
  });

  it("rejects at load time a format the run-time check would leave unchecked, naming it and the supported ones", () => {
    for (const format of NOT_ENFORCED) {
      expect(enforcedFormats()).not.toContain(format);
      const issues = checkFrontmatterSchemas(
        workflowWith({ type: "object", properties: { list: { type: "array", items: { format } } } }),
      );
      expect(issues).toEqual([
        {
          severity: "error",
          path: ["roles", "reporter", "frontmatter", "properties", "list", "items", "format"],
          message: `unknown format "${format}": uwf checks only ${enforcedFormats().join(", ")}; any other format would go unchecked`,
        },
      ]);
    }
    // What loading it would have meant: the run-time check lets anything through.
    expect(validateOutputFields({ value: "not a number" }, withFormat("int32"))).toEqual({ success: true });
  });

  it("agrees with the run-time check on every role schema of the examples and the test fixtures", () => {
    const loaded = loadableWorkflows();
    expect(loaded.map(({ file }) => file)).toEqual(
      expect.arrayContaining([join(ROOT, "examples/triage.yaml"), join(ROOT, "examples/review-loop.yaml")]),
    );
    let schemas = 0;
    let formats = 0;
    for (const { file, workflow } of loaded) {
      for (const [role, definition] of Object.entries(workflow.roles)) {
        const schema = definition.frontmatter;
        if (schema === undefined) continue;
        schemas++;
        const where = `${file} ${role}`;
        // The load-time check passed (the file loaded); the run-time check builds its validator.
        expect({ where, issues: checkFrontmatterSchemas(workflowWith(schema)) }).toEqual({ where, issues: [] });
        expect(() => validateOutputFields({}, schema)).not.toThrow();
        for (const { path, format } of formatsIn(schema)) {
          formats++;
          expect({ where, path, format, enforced: enforcedFormats().includes(String(format)) }).toEqual({
            where,
            path,
            format,
            enforced: true,
          });
          const [keyword, field] = path;
          if (path.length !== 2 || keyword !== "properties" || field === undefined) continue;
          const sample = SAMPLES[String(format)] as { invalid: string };
          const result = validateOutputFields({ [field]: sample.invalid }, schema);
          expect({ where, field, format, result }).toMatchObject({
            where,
            field,
            format,
            result: {
              success: false,
              problem: expect.stringContaining(`field "${field}": String does not match format`),
            },
          });
        }
      }
    }
    expect(schemas).toBeGreaterThan(20);
    expect(formats).toBeGreaterThanOrEqual(3);
  });
});

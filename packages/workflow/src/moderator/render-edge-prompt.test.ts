import { describe, expect, it } from "bun:test";
import { historyOf, workflowFromYaml } from "../../test/moderator-test-helpers.ts";
import { EdgePromptError } from "../errors/edge-prompt-error.ts";
import { EDGE_PROMPT_MEMORY_LIMIT, EDGE_PROMPT_RENDER_LIMIT_MS } from "./edge-template.ts";
import { renderEdgePrompt } from "./render-edge-prompt.ts";

const afterReview = historyOf([
  {
    role: "reviewer",
    output: { $status: "rejected", comments: "add a test", files: ["a.ts", "b.ts"] },
    body: "Details.",
  },
]);

function render(template: string, options: { from?: string; to?: string } = {}): Promise<string> {
  return renderEdgePrompt({
    template,
    from: options.from ?? "reviewer",
    to: options.to ?? "writer",
    history: afterReview,
  });
}

/**
 * A hang guard, not a measurement: the runaway templates below stop at their limit, within the
 * 2 s render limit, and would run for a minute or more (or exhaust memory) if the limit were not
 * enforced as they render. (Bun reports the timeout once the render returns; it cannot cut it short.)
 */
const HANG_GUARD_MS = 20_000;

describe("renderEdgePrompt", () => {
  const cases: [string, string, string][] = [
    ["renders the previous step's output fields", "Address: {{ comments }}", "Address: add a test"],
    ["renders the previous step's body as _body", "{{ _body }}", "Details."],
    ["renders the $status field through bracket access", "It was {{ ['$status'] }}.", "It was rejected."],
    [
      "renders the start and the thread",
      "{{ start.prompt }} in {{ thread.id }}",
      "fix the bug in 01J0000000000000000000THRD",
    ],
    ["applies filters and loops", "{% for file in files %}[{{ file | upcase }}]{% endfor %}", "[A.TS][B.TS]"],
    [
      "lets if and default test a field the output lacks",
      "{% if missing %}x{% endif %}{{ missing | default: 'none' }}",
      "none",
    ],
    ["trims the rendered prompt", "\n  Fix it.  \n", "Fix it."],
  ];
  for (const [name, template, expected] of cases) {
    it(name, async () => {
      expect(await render(template)).toBe(expected);
    });
  }

  it("gives a $START edge only the start and the thread", async () => {
    const attempt = render("{{ comments }}", { from: "$START" });
    await expect(attempt).rejects.toBeInstanceOf(EdgePromptError);
    await expect(attempt).rejects.toThrow(
      /^the edge prompt from \$START to writer cannot be rendered: undefined variable: comments/,
    );
  });

  it("fails on a variable the output does not have", async () => {
    const error = await render("Fix {{ summary }}").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(EdgePromptError);
    expect((error as EdgePromptError).code).toBe("edge-prompt-failed");
    expect((error as EdgePromptError).data).toMatchObject({ from: "reviewer", to: "writer" });
  });

  it("fails when a prompt to a role renders empty", async () => {
    await expect(render("{% if missing %}x{% endif %}  ")).rejects.toThrow(
      "the edge prompt from reviewer to writer rendered empty; the next role needs a prompt",
    );
  });

  it("allows an empty prompt on an edge to $END", async () => {
    expect(await render("", { to: "$END" })).toBe("");
  });

  it(
    "stops a template that would build more than its memory limit, before building it",
    async () => {
      // Three billion items: a render that built the range before counting it would never get to the error.
      await expect(render("{% for i in (1..3000000000) %}x{% endfor %}")).rejects.toThrow(
        `the edge prompt from reviewer to writer cannot be rendered: it built more than the ${EDGE_PROMPT_MEMORY_LIMIT.toLocaleString("en-US")} characters or list items a render may (line:1, col:1)`,
      );
    },
    HANG_GUARD_MS,
  );

  it(
    "stops a template that renders longer than its time limit, as it renders",
    async () => {
      // A hundred million iterations over one range of a hundred (so the memory limit stays out of it):
      // about a minute of work, so a limit checked only at the end would hit the hang guard.
      const loopOverHundred = "{% for i in hundred %}";
      const loop = `{% assign hundred = (1..100) %}${loopOverHundred.repeat(4)}x${"{% endfor %}".repeat(4)}`;
      const started = performance.now();
      await expect(render(loop)).rejects.toThrow(
        new RegExp(`cannot be rendered: it ran longer than the ${EDGE_PROMPT_RENDER_LIMIT_MS} ms render limit`),
      );
      // A lower bound only, which load cannot break: the limit does not stop a render before its time.
      expect(performance.now() - started).toBeGreaterThanOrEqual(EDGE_PROMPT_RENDER_LIMIT_MS);
    },
    HANG_GUARD_MS,
  );

  it("cannot read files through include", async () => {
    await expect(render("{% include '/etc/hostname' %}")).rejects.toBeInstanceOf(EdgePromptError);
  });
});

describe("renderEdgePrompt with start inputs and declared fields", () => {
  const workflow = workflowFromYaml(`
name: test
inputs:
  type: object
  properties: { repo: { type: string }, pr: { type: integer }, label: { type: string } }
roles:
  reviewer:
    goal: Review.
    frontmatter:
      type: object
      oneOf:
        - properties: { $status: { const: rejected }, why: { type: string }, pr: { type: string } }
        - properties: { $status: { const: approved } }
graph:
  $START: [{ role: reviewer, prompt: "Go." }]
  reviewer: [{ role: $END }]
`);
  const withInputs = (steps: Parameters<typeof historyOf>[0]) => {
    const history = historyOf(steps);
    return { ...history, start: { ...history.start, inputs: { repo: "acme/shop", pr: 42 } } };
  };
  const renderWith = (template: string, history: ReturnType<typeof withInputs>, from = "reviewer") =>
    renderEdgePrompt({ template, from, to: "writer", history, workflow });

  it("gives inputs by name and under inputs at $START", async () => {
    expect(
      await renderWith("PR #{{ pr }} in {{ inputs.repo }} ({{ start.inputs.repo }})", withInputs([]), "$START"),
    ).toBe("PR #42 in acme/shop (acme/shop)");
  });

  it("lets a reply's own field win over an input of the same name, and inputs.KEY reach the input", async () => {
    const history = withInputs([{ role: "reviewer", output: { $status: "rejected", why: "w", pr: "the PR" } }]);
    expect(await renderWith("{{ pr }} / {{ inputs.pr }} / {{ repo }}", history)).toBe("the PR / 42 / acme/shop");
  });

  it("renders a declared field or input that is missing as empty instead of failing", async () => {
    const history = withInputs([{ role: "reviewer", output: { $status: "approved" } }]);
    expect(await renderWith("[{{ why }}][{{ label }}][{{ inputs.label }}] PR {{ pr }}", history)).toBe("[][][] PR 42");
  });

  it("still fails on a name neither the role nor the inputs declare", async () => {
    const history = withInputs([{ role: "reviewer", output: { $status: "approved" } }]);
    await expect(renderWith("{{ nothing }}", history)).rejects.toBeInstanceOf(EdgePromptError);
  });
});

import { describe, expect, it } from "bun:test";
import { EdgePromptError } from "./edge-prompt-error.ts";
import { historyOf } from "./moderator-test-helpers.ts";
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

  it("cannot read files through include", async () => {
    await expect(render("{% include '/etc/hostname' %}")).rejects.toBeInstanceOf(EdgePromptError);
  });
});

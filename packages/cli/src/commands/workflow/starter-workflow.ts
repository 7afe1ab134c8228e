/**
 * The files `uwf workflow new NAME` writes: a workflow that shows each kind of step once — a model role,
 * a shell check, a fan-out to two reviewers joined by a person's approval — and a scenario that plays
 * its model roles and the person offline, so `uwf run NAME.yaml --agent scripted:NAME.scenario.yaml`
 * runs it to its end.
 */
export function starterWorkflow(name: string): string {
  return `# A starter workflow: edit the roles' goals, the check's command and the graph to make it yours.
# Check it:         uwf workflow validate ${name}.yaml
# Run it offline:   uwf run ${name}.yaml -p "Add a --dry-run flag" --agent scripted:${name}.scenario.yaml
# Run it for real:  uwf run ${name}.yaml -p "…"   (after \`uwf setup\`; the model roles use your default agent)
# The language: docs/workflows.md.
name: ${name}
description: Plan a change, check it, have two reviewers read the plan at once, then ask a person to approve
roles:
  planner: # a model role: the default agent (or --agent) plays it, and reports the fields below
    description: Plans the change
    goal: You plan the smallest change that does the task.
    output: The plan, in a few lines.
    frontmatter:
      type: object
      properties:
        plan: { type: string, description: "The plan, in a few lines." }
      required: [plan]
  checks: # a shell check: a real command, no model; exit 0 is $status pass, anything else fail
    description: Runs the project's checks
    goal: Run the checks.
    agent:
      builtin: shell
      run: |
        echo "checks: replace this with your project's tests (npm test, make check, …)"
        test -d .
    frontmatter:
      type: object
      properties:
        $status: { enum: [pass, fail] }
        exitCode: { type: [integer, "null"] }
      required: [$status, exitCode]
  reviewer: # played once in each branch of the fan-out below, each with its own angle
    description: Reviews the plan from one angle
    goal: You review the plan from the one angle you are given.
    frontmatter:
      type: object
      properties:
        verdict: { enum: [approve, reject] }
        notes: { type: string }
      required: [verdict, notes]
  approver: # a person's approval: the thread suspends until \`uwf resume THREAD --answer '{"approved": true}'\`
    description: Asks a person to approve the plan
    goal: Ask a person (suspend) whether to go ahead with the plan, giving the reviewers' verdicts; pass their answer on.
    ask:
      type: object
      properties:
        question: { type: string, description: The yes-or-no question for the person. }
      required: [question]
    answer: approval
  finisher:
    description: Says what was done
    goal: Say what was done and what is left.
conditions:
  approved:
    description: The person approved
    expression: "steps[-1].answer.approved = true"
graph:
  $START:
    - { role: planner, prompt: "Plan this: {{ start.prompt }}" }
  planner:
    - { role: checks, prompt: "Run the checks for this plan: {{ plan }}" }
  checks:
    pass:
      parallel: # a fan-out: two branches run at once; the join waits for both
        correctness: { role: reviewer, prompt: "The checks passed. Review the plan above for correctness." }
        risk: { role: reviewer, prompt: "The checks passed. Review the plan above for what could break." }
      join:
        role: approver
        policy: all
        prompt: >-
          Ask whether to go ahead. Correctness: {{ branches.correctness.output.verdict }}
          ({{ branches.correctness.output.notes }}); risk: {{ branches.risk.output.verdict }}
          ({{ branches.risk.output.notes }}).
    fail: { role: planner, prompt: "The checks failed (exit {{ exitCode }}):\\n\\n{{ _body }}\\n\\nPlan again." }
  approver:
    - { role: finisher, condition: approved, prompt: "Approved. The person said: {{ answer.comment }}" }
    - { role: planner, prompt: "Not approved: {{ answer.comment }}. Plan again." }
  finisher:
    - { role: $END }
`;
}

/** The scenario that plays the starter workflow's model roles and its person, one entry per step. */
export function starterScenario(name: string): string {
  return `# Plays ${name}.yaml offline: uwf run ${name}.yaml -p "…" --agent scripted:${name}.scenario.yaml
# The entry used for a step is the number of steps already in the thread; the \`checks\` entry is a
# placeholder (the real shell command plays that step), and each reviewer entry is played by its
# branch (\`branch: KEY\`). The approver's second entry carries the person's answer, which \`uwf run\`
# gives as \`uwf resume THREAD --answer '{"approved": true, "comment": "…"}'\` would.
steps:
  - role: planner
    output: { plan: "Parse the flag; skip every write when it is set; document it." }
    body: Three small steps.
  - role: checks
    output: { $status: pass, exitCode: 0 }
  - role: reviewer
    branch: correctness
    output: { verdict: approve, notes: every write path is covered }
    body: Correct.
  - role: reviewer
    branch: risk
    output: { verdict: approve, notes: nothing changes without the flag }
    body: Low risk.
  - role: approver
    output: { $status: $SUSPEND, reason: The plan needs a person's approval., question: Go ahead with the plan? }
    body: Waiting for a person.
  - role: approver
    answer: { approved: true, comment: Go ahead. }
    output: {}
    body: The person approved.
  - role: finisher
    output: {}
    body: Planned, checked, reviewed and approved.
`;
}

import { describe, expect, it } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { errorResultSchema } from "@uwf/protocol";
import { useTempHome } from "../../helpers/temp-home.ts";

/** A gate that suspends asking for a ticket number, then passes the answer on to a role that files it. */
const WORKFLOW = `name: ticket
roles:
  gate:
    goal: Ask which ticket to file under.
    ask: { type: object, properties: { question: { type: string } }, required: [question] }
    answer:
      type: object
      properties:
        ticket: { type: integer }
        note: { type: string }
        tags: { type: array, items: { type: string } }
      required: [ticket]
  filer:
    goal: File it.
graph:
  $START: [ { role: gate, prompt: "Ask." } ]
  gate: [ { role: filer, prompt: "File under {{ answer.ticket }}." } ]
  filer: [ { role: $END } ]
`;
const SCENARIO = `steps:
  - role: gate
    output: { $status: $SUSPEND, reason: "Which ticket?", question: "Which ticket?" }
  - role: gate
    output: {}
  - role: filer
    output: {}
`;

const temp = useTempHome({
  setUp: (home) => {
    writeFileSync(join(home.work, "ticket.yaml"), WORKFLOW);
    writeFileSync(join(home.work, "ticket.scenario.yaml"), SCENARIO);
  },
});

const agent = () => ["--agent", `scripted:${join(temp.work, "ticket.scenario.yaml")}`];

describe("uwf resume --answer with values JSON cannot carry exactly", () => {
  it.each([
    ['{"ticket": 9007199254740993}', "ticket", "9007199254740993 is beyond 2^53"],
    ['{"ticket": 1e3000000}', "ticket", "(or a number too large to hold) is not a number JSON can carry"],
    ['{"ticket": 1, "note": "\\ud800"}', "note", "\\ud800 is half of a UTF-16 surrogate pair"],
    ['ticket: 1\ntags: [a, "\\udc00b"]', "tags[1]", "\\udc00 is half of a UTF-16 surrogate pair"],
  ])(
    "refuses %j with invalid-answer, exit 2, naming the field; the thread is unchanged",
    async (answer, field, problem) => {
      const thread = await temp.startThread(join(temp.work, "ticket.yaml"), "File it");
      expect((await temp.uwf(["step", thread, ...agent()])).exitCode).toBe(20);
      const before = await temp.showThread(thread);

      const refused = await temp.uwf(["resume", thread, "--answer", answer, ...agent(), "--json"]);
      expect(refused.exitCode).toBe(2);
      const { error } = errorResultSchema.parse(JSON.parse(refused.stderr));
      expect(error.code).toBe("invalid-answer");
      expect(error.data).toMatchObject({ thread, role: "gate", field });
      expect(error.message).toContain(`field "${field}": `);
      expect(error.message).toContain(problem);
      const plain = await temp.uwf(["resume", thread, "--answer", answer, ...agent()]);
      expect(plain.exitCode).toBe(2);
      // One error line (after the hint that shows what the role takes).
      const errors = plain.stderr.split("\n").filter((line) => line.startsWith("uwf: "));
      expect(errors).toEqual([expect.stringContaining(`the answer to role gate is refused: field "${field}": `)]);
      expect(await temp.showThread(thread)).toEqual(before);
    },
    60_000,
  );

  it("takes the largest exact integer and gives it to the role unrounded", async () => {
    const thread = await temp.startThread(join(temp.work, "ticket.yaml"), "File it");
    expect((await temp.uwf(["step", thread, ...agent()])).exitCode).toBe(20);
    const resumed = await temp.uwf(["resume", thread, "--answer", '{"ticket": 9007199254740991}', "--all", ...agent()]);
    expect(resumed.stderr).toBe("");
    expect(resumed.exitCode).toBe(0);
    const log = await temp.uwf(["read", thread]);
    expect(log.stdout).toContain("File under 9007199254740991.");
  }, 60_000);
});

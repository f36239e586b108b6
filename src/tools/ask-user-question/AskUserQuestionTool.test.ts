import { describe, expect, it } from "vitest";
import type { ApprovalRequest, PipelineServices, Prompter } from "../../pipeline/services.ts";
import { pipelineResult, resultSummary } from "../../pipeline/testing/tools.ts";
import { createToolUseContext } from "../../tool/createContext.ts";
import { AskUserQuestionTool } from "./AskUserQuestionTool.ts";

const QUESTION = {
  question: "Which database should the service use?",
  header: "Database",
  options: [
    { label: "Postgres (Recommended)", description: "Relational, already in the stack" },
    { label: "SQLite", description: "A file, no server" },
  ],
};

async function ask(
  input: unknown,
  services: PipelineServices = {},
  allow: string[] = [],
  mode: "default" | "bypassPermissions" = "default",
) {
  const context = createToolUseContext({ tools: [AskUserQuestionTool], allow, mode });
  return resultSummary(
    await pipelineResult(
      { type: "tool_use", id: "toolu_q", name: "AskUserQuestion", input },
      context,
      services,
    ),
  );
}

/** A person at a terminal, played by the test: picks the labels given per question. */
function personPicking(choices: Record<string, string>): Prompter & { requests: ApprovalRequest[] } {
  const requests: ApprovalRequest[] = [];
  return {
    name: "test-person",
    requests,
    async ask(request) {
      requests.push(request);
      const input = request.input as { questions: Array<{ question: string }> };
      const answers = Object.fromEntries(
        input.questions
          .filter((q) => choices[q.question] !== undefined)
          .map((q) => [q.question, choices[q.question]!]),
      );
      return { behavior: "allow", choice: "once", updatedInput: { ...input, answers } };
    },
  };
}

describe("AskUserQuestion through the pipeline", () => {
  it("is refused when nobody can answer (non-interactive), even with an allow rule or in bypass mode", async () => {
    for (const [allow, mode] of [
      [[], "default"],
      [["AskUserQuestion"], "default"],
      [[], "bypassPermissions"],
    ] as const) {
      const result = await ask({ questions: [QUESTION] }, {}, [...allow], mode);
      expect(result.isError).toBe(true);
      expect(result.code).toBe("permission_denied");
      expect(result.text).toContain("non-interactive");
    }
  });

  it("returns the person's answers given through a Prompter", async () => {
    const second = { ...QUESTION, question: "Add caching?", header: "Cache", multiSelect: true };
    const prompter = personPicking({
      [QUESTION.question]: "SQLite",
      [second.question]: "Postgres (Recommended), SQLite",
    });
    const result = await ask({ questions: [QUESTION, second] }, { prompter });
    expect(result.isError).toBe(false);
    expect(result.text).toContain('"Which database should the service use?"="SQLite"');
    expect(result.text).toContain('"Add caching?"="Postgres (Recommended), SQLite"');
    expect(prompter.requests).toHaveLength(1);
    expect(prompter.requests[0]?.decision.decisionReason.type).toBe("tool");
  });

  it("names the questions the person skipped", async () => {
    const other = { ...QUESTION, question: "Which region?", header: "Region" };
    const result = await ask(
      { questions: [QUESTION, other] },
      { prompter: personPicking({ [QUESTION.question]: "SQLite" }) },
    );
    expect(result.text).toContain('Not answered: "Which region?"');
  });

  it("refuses answers the model wrote itself", async () => {
    const result = await ask(
      { questions: [QUESTION], answers: { [QUESTION.question]: "SQLite" } },
      { prompter: personPicking({}) },
    );
    expect(result.isError).toBe(true);
    expect(result.text).toContain("Do not set `answers`");
  });
});

describe("AskUserQuestion input", () => {
  const parse = (input: unknown) => AskUserQuestionTool.inputSchema.safeParse(input).success;
  const options = (n: number) => Array.from({ length: n }, (_, i) => ({ label: `o${i}`, description: "" }));
  const question = (i: number, n = 2) => ({ question: `Q${i}?`, header: `H${i}`, options: options(n) });

  it.each([
    ["1 question, 2 options", { questions: [question(1)] }, true],
    ["4 questions, 4 options", { questions: [1, 2, 3, 4].map((i) => question(i, 4)) }, true],
    ["no questions", { questions: [] }, false],
    ["5 questions", { questions: [1, 2, 3, 4, 5].map((i) => question(i)) }, false],
    ["1 option", { questions: [question(1, 1)] }, false],
    ["5 options", { questions: [question(1, 5)] }, false],
    ["a header over 12 characters", { questions: [{ ...question(1), header: "A very long header" }] }, false],
  ])("%s -> %s", (_name, input, ok) => expect(parse(input)).toBe(ok));

  it("refuses repeated questions and repeated option labels", async () => {
    const context = createToolUseContext({ tools: [] });
    const twice = AskUserQuestionTool.inputSchema.parse({ questions: [question(1), question(1)] });
    expect((await AskUserQuestionTool.validateInput!(twice, context)).result).toBe(false);
    const sameLabels = AskUserQuestionTool.inputSchema.parse({
      questions: [
        {
          ...question(1),
          options: [
            { label: "a", description: "" },
            { label: "a", description: "" },
          ],
        },
      ],
    });
    expect((await AskUserQuestionTool.validateInput!(sameLabels, context)).result).toBe(false);
  });
});

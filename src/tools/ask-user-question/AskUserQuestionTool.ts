// AskUserQuestion: 1-4 multiple-choice questions for the person at the keyboard. The answers arrive as
// the prompter's updated input (`answers`); with nobody to ask, the pipeline refuses the call.
import { readFileSync } from "node:fs";
import * as z from "zod";
import { ToolError } from "../../tool/errors.ts";
import type { ToolResultBlock } from "../../tool/messages.ts";
import { buildTool, type Tool } from "../../tool/Tool.ts";
import { askUserQuestionToolMeta } from "./meta.ts";

const PROMPT = readFileSync(new URL("./prompt.md", import.meta.url), "utf8").trim();

const optionSchema = z.strictObject({
  label: z.string().trim().min(1).max(60).describe("The choice, in 1-5 words"),
  description: z.string().describe("What this choice means or implies"),
});

const questionSchema = z.strictObject({
  question: z.string().trim().min(1).describe("The full question, ending with a question mark"),
  header: z
    .string()
    .trim()
    .min(1)
    .max(12)
    .describe("A very short label for the question (max 12 characters)"),
  options: z.array(optionSchema).min(2).max(4).describe("2-4 choices"),
  multiSelect: z.boolean().default(false).describe("Allow choosing several options"),
});
export type Question = z.infer<typeof questionSchema>;

const inputSchema = z.strictObject({
  questions: z.array(questionSchema).min(1).max(4).describe("1-4 questions to ask"),
  answers: z
    .record(z.string(), z.string())
    .optional()
    .describe("Filled in by the user interface with the user's answers; never set it yourself"),
});
export type AskUserQuestionInput = z.infer<typeof inputSchema>;

export interface AskUserQuestionOutput {
  questions: Question[];
  /** Question text -> the answer (several chosen labels are joined with ", "). */
  answers: Record<string, string>;
}

function duplicates(values: readonly string[]): string[] {
  return values.filter((value, index) => values.indexOf(value) !== index);
}

function render(output: AskUserQuestionOutput): string {
  const answered = output.questions.filter((q) => output.answers[q.question] !== undefined);
  const skipped = output.questions.filter((q) => output.answers[q.question] === undefined);
  const parts = answered.map((q) => `"${q.question}"="${output.answers[q.question]}"`);
  const lines = [
    answered.length > 0
      ? `The user answered your questions: ${parts.join(", ")}. Continue with these answers in mind.`
      : "The user did not answer any of the questions.",
  ];
  if (skipped.length > 0)
    lines.push(
      `Not answered: ${skipped.map((q) => `"${q.question}"`).join(", ")}. Use your best judgement there.`,
    );
  return lines.join("\n");
}

export const AskUserQuestionTool: Tool<AskUserQuestionInput, AskUserQuestionOutput> = buildTool<
  AskUserQuestionInput,
  AskUserQuestionOutput
>({
  ...askUserQuestionToolMeta,
  searchHint: "ask the user multiple-choice questions",
  inputSchema,
  maxResultSizeChars: 20_000,
  prompt: () => PROMPT,
  description: (input) =>
    `Ask the user ${input.questions.length} question${input.questions.length === 1 ? "" : "s"}`,
  isReadOnly: true,
  // One dialog at a time.
  isConcurrencySafe: false,
  requiresUserInteraction: () => true,
  userQuestions: {
    questions: (input) => input.questions,
    withAnswers: (input, answers) => ({ ...input, answers }),
  },
  checkPermissions: async (input) => ({
    behavior: "ask",
    message: `Answer: ${input.questions.map((q) => q.question).join(" / ")}`,
    decisionReason: { type: "tool", reason: "questions only a person can answer" },
  }),

  validateInput(input) {
    if (input.answers !== undefined)
      return {
        result: false,
        errorCode: "invalid_input",
        message: "Do not set `answers`: the user gives them. Send only `questions`.",
      };
    const repeatedQuestions = duplicates(input.questions.map((q) => q.question));
    if (repeatedQuestions.length > 0)
      return {
        result: false,
        errorCode: "invalid_input",
        message: `Each question must be different; "${repeatedQuestions[0]}" appears twice.`,
      };
    for (const question of input.questions) {
      const repeated = duplicates(question.options.map((option) => option.label));
      if (repeated.length > 0)
        return {
          result: false,
          errorCode: "invalid_input",
          message: `The options of "${question.question}" must have different labels; "${repeated[0]}" appears twice.`,
        };
    }
    return { result: true };
  },

  async call(input) {
    if (input.answers === undefined)
      throw new ToolError(
        "no_answer",
        "Nobody answered the questions (no interactive user in this session). Go on with your best judgement and state the assumptions you made.",
      );
    return { data: { questions: input.questions, answers: input.answers } };
  },

  mapToolResultToToolResultBlockParam(output, toolUseId): ToolResultBlock {
    return { type: "tool_result", tool_use_id: toolUseId, content: render(output) };
  },
  renderToolUse: (input) => ({
    kind: "list",
    title: "Questions",
    items: input.questions.map(
      (q) => `${q.header}: ${q.question} [${q.options.map((o) => o.label).join(" | ")}]`,
    ),
  }),
  renderToolResult: (output) => ({
    kind: "list",
    title: "Answers",
    items: Object.entries(output.answers).map(([question, answer]) => `${question} -> ${answer}`),
  }),
});

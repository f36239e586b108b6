// A tool's questions for the person (AskUserQuestion) as an MCP elicitation form: one field per question
// with its options as the choices (several for a multi-select), plus an optional field to answer in one's
// own words. Clients of MCP 2025-11-25 (that declare `elicitation.form`) get titled choices and real
// multi-selects; older ones get the legacy enum with enumNames, and a text field for a multi-select.
import type { ElicitRequestFormParams } from "@modelcontextprotocol/sdk/types.js";
import type { UserQuestion } from "../tool/Tool.ts";

type Schema = ElicitRequestFormParams["requestedSchema"];
type Field = Schema["properties"][string];

export interface QuestionForm {
  message: string;
  requestedSchema: Schema;
  /** The form's content as answers: question text -> answer; unanswered questions are left out. */
  answers(content: Record<string, unknown> | undefined): Record<string, string>;
}

const fieldKey = (index: number) => `q${index + 1}`;
const ownWordsKey = (index: number) => `q${index + 1}_own_words`;

function optionTitle(option: UserQuestion["options"][number]): string {
  return option.description ? `${option.label} — ${option.description}` : option.label;
}

function choiceField(question: UserQuestion, titledChoices: boolean): Field {
  const labels = question.options.map((option) => option.label);
  const base = { title: question.header, description: question.question };
  if (question.multiSelect) {
    if (titledChoices)
      return {
        ...base,
        type: "array",
        items: {
          anyOf: question.options.map((option) => ({ const: option.label, title: optionTitle(option) })),
        },
      };
    return {
      ...base,
      type: "string",
      description: `${question.question} Choose one or more of: ${labels.join(", ")} (separate them with commas).`,
    };
  }
  if (titledChoices)
    return {
      ...base,
      type: "string",
      oneOf: question.options.map((option) => ({ const: option.label, title: optionTitle(option) })),
    };
  return { ...base, type: "string", enum: labels, enumNames: question.options.map(optionTitle) };
}

function chosenLabels(value: unknown, question: UserQuestion): string[] {
  const labels = question.options.map((option) => option.label);
  const given = Array.isArray(value)
    ? value.filter((item): item is string => typeof item === "string")
    : typeof value === "string"
      ? question.multiSelect
        ? value.split(",").map((part) => part.trim())
        : [value.trim()]
      : [];
  // A legacy text answer may name options loosely; keep what it says, options in their own spelling.
  return given
    .filter((item) => item !== "")
    .map((item) => labels.find((label) => label.toLowerCase() === item.toLowerCase()) ?? item);
}

export function questionForm(questions: readonly UserQuestion[], titledChoices: boolean): QuestionForm {
  const properties: Schema["properties"] = {};
  questions.forEach((question, index) => {
    properties[fieldKey(index)] = choiceField(question, titledChoices);
    properties[ownWordsKey(index)] = {
      type: "string",
      title: `${question.header}: in your own words (optional)`,
      description: "Answer here instead of (or beside) the choices above.",
    };
  });
  const count = questions.length;
  const message = [
    `The assistant asks you ${count === 1 ? "a question" : `${count} questions`}:`,
    ...questions.map((question, index) => `${index + 1}. ${question.question}`),
  ].join("\n");
  return {
    message,
    requestedSchema: { type: "object", properties },
    answers(content) {
      const answers: Record<string, string> = {};
      questions.forEach((question, index) => {
        const chosen = chosenLabels(content?.[fieldKey(index)], question).join(", ");
        const ownRaw = content?.[ownWordsKey(index)];
        const own = typeof ownRaw === "string" ? ownRaw.trim() : "";
        const answer = chosen && own ? `${chosen} (${own})` : chosen || own;
        if (answer) answers[question.question] = answer;
      });
      return answers;
    },
  };
}

// Very long commands hide what they do from the person approving them, and cost the analyzer time.
import type { TextCheck } from "./types.ts";

export const MAX_COMMAND_LENGTH = 10_000;

export const tooLong: TextCheck = {
  id: "too-long",
  stage: "text",
  description: `commands over ${String(MAX_COMMAND_LENGTH).replace(/\B(?=(\d{3})+$)/g, ",")} characters are not analysed`,
  run: (command) =>
    command.length > MAX_COMMAND_LENGTH
      ? `the command is ${command.length} characters long (over ${MAX_COMMAND_LENGTH}); split it into shorter commands`
      : undefined,
  examples: {
    trigger: [`echo ${"a".repeat(MAX_COMMAND_LENGTH)}`],
    pass: ["echo short", `echo ${"a".repeat(MAX_COMMAND_LENGTH - 10)}`],
  },
};

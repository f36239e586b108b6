// Scripted print-mode runs played to both Claude Code (`claude -p`) and Keel (`keel -p`) against the same
// scripted Anthropic server, so their json and stream-json output can be compared shape for shape:
// recorded from Claude Code by scripts/record-claude-code-output.ts, compared by printShapes.test.ts.
import { join } from "node:path";
import type { RecordedRequest, Script, ScriptTurn } from "./script.ts";

export interface PrintScenario {
  name: string;
  prompt: string;
  /** Flags after `-p <prompt>`, the same for both programs. */
  flags: string[];
  /** The model's turns in the main conversation, given the project folder. */
  turns: (project: string) => ScriptTurn[];
}

/** Read (allowed in default mode), a write with nobody to approve it (refused), then the answer. */
const readThenRefusedWrite = (project: string): ScriptTurn[] => [
  {
    blocks: [
      { type: "tool_use", name: "Read", input: { file_path: join(project, "README.md") }, id: "toolu_read" },
    ],
  },
  { blocks: [{ type: "tool_use", name: "Bash", input: { command: "touch notes.txt" }, id: "toolu_touch" }] },
  { blocks: [{ type: "text", text: "done" }] },
];

/** Text and three parallel calls in one message, then the answer. */
const parallelCalls = (project: string): ScriptTurn[] => [
  {
    blocks: [
      { type: "text", text: "Reading." },
      { type: "tool_use", name: "Read", input: { file_path: join(project, "README.md") }, id: "toolu_a" },
      { type: "tool_use", name: "Read", input: { file_path: join(project, "src", "app.ts") }, id: "toolu_b" },
      {
        type: "tool_use",
        name: "Read",
        input: { file_path: join(project, "build", "keep.txt") },
        id: "toolu_c",
      },
    ],
  },
  { blocks: [{ type: "text", text: "All done." }] },
];

export const PRINT_SCENARIOS: readonly PrintScenario[] = [
  {
    name: "tools-json",
    prompt: "Look around.",
    flags: ["--output-format", "json"],
    turns: readThenRefusedWrite,
  },
  {
    name: "tools-stream-json",
    prompt: "Look around.",
    flags: ["--output-format", "stream-json", "--verbose"],
    turns: readThenRefusedWrite,
  },
  {
    name: "parallel-stream-json",
    prompt: "Look around.",
    flags: ["--output-format", "stream-json", "--verbose"],
    turns: parallelCalls,
  },
  {
    name: "max-turns-json",
    prompt: "Look around.",
    flags: ["--output-format", "json", "--max-turns", "2"],
    turns: readThenRefusedWrite,
  },
  {
    name: "max-turns-stream-json",
    prompt: "Look around.",
    flags: ["--output-format", "stream-json", "--verbose", "--max-turns", "1"],
    turns: parallelCalls,
  },
];

/**
 * The turns in order for requests of the main conversation (those offering Bash), chosen by how many
 * assistant messages the request already holds; any other request (titles, summaries) gets "ok".
 */
export function mainConversationScript(turns: readonly ScriptTurn[]): Script {
  return (request: RecordedRequest): ScriptTurn => {
    const body = request.body as { tools?: Array<{ name?: string }>; messages?: Array<{ role: string }> };
    if (!(body.tools ?? []).some((tool) => tool.name === "Bash"))
      return { blocks: [{ type: "text", text: "ok" }] };
    const answered = (body.messages ?? []).filter((message) => message.role === "assistant").length;
    return turns[answered] ?? { blocks: [{ type: "text", text: "done" }] };
  };
}

/** The folders of a run replaced by placeholders, so a recording holds no paths of the machine. */
export function withPlaceholders(
  text: string,
  folders: { project: string; home: string; base: string },
): string {
  return text
    .split(folders.project)
    .join("$PROJECT")
    .split(folders.home)
    .join("$HOME")
    .split(folders.base)
    .join("$BASE");
}

/** A print run's stdout as records: one object (json) or one per line (stream-json). */
export function outputRecords(stdout: string): Array<Record<string, unknown>> {
  return stdout
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

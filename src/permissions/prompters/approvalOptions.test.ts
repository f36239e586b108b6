// The approval question as a person meets it, through the real pipeline and the real tools: what is
// shown before answering (an edit's diff, the whole command, a new file's head) and what each choice
// does and says it does (a mode for this session, a narrow rule saved in the local settings file).
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runToolUse } from "../../pipeline/runToolUse.ts";
import type { ApprovalAnswer, ApprovalRequest } from "../../pipeline/services.ts";
import { initBashParser } from "../../shell/analyze/grammar/parse.ts";
import type { ToolUseContext } from "../../tool/context.ts";
import { createToolUseContext } from "../../tool/createContext.ts";
import type { Tool } from "../../tool/Tool.ts";
import { BashTool } from "../../tools/bash/BashTool.ts";
import { EditTool } from "../../tools/edit/EditTool.ts";
import { ReadTool } from "../../tools/read/ReadTool.ts";
import { recordFileState, sha256 } from "../../tools/shared/readState.ts";
import { WriteTool } from "../../tools/write/WriteTool.ts";
import { type ApprovalPrompt, applyApproval, describeApproval } from "./approvalOptions.ts";

const tools = [BashTool, EditTool, WriteTool, ReadTool] as Tool[];
let dir: string;
let context: ToolUseContext;

beforeAll(() => initBashParser());
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "keel-approval-")));
  context = createToolUseContext({ tools, cwd: dir, isNonInteractiveSession: false });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

let counter = 0;
/** Runs the call through the pipeline; the prompter describes the question, then picks `choose`. */
async function ask(
  tool: Tool,
  input: Record<string, unknown>,
  options: {
    persist?: boolean;
    caller?: "model" | "person";
    choose?: (prompt: ApprovalPrompt) => string;
  } = {},
): Promise<{ prompt: ApprovalPrompt; isError: boolean; notes: string[] }> {
  let prompt: ApprovalPrompt | undefined;
  let notes: string[] = [];
  const prompter = {
    name: "test",
    async ask(request: ApprovalRequest): Promise<ApprovalAnswer> {
      prompt = await describeApproval(request, {
        persist: options.persist ?? true,
        ...(options.caller ? { caller: options.caller } : {}),
      });
      const key = options.choose?.(prompt) ?? "n";
      const applied = applyApproval(request, prompt.options.find((option) => option.key === key)!);
      notes = applied.notes;
      return applied.answer;
    },
  };
  let isError = true;
  for await (const event of runToolUse(
    { type: "tool_use", id: `call-${counter++}`, name: tool.name, input },
    context,
    { prompter },
  ))
    if (event.type === "result") isError = event.isError;
  if (!prompt) throw new Error("the call did not ask");
  return { prompt, isError, notes };
}

function readFile(path: string): void {
  const bytes = readFileSync(path);
  recordFileState(context, path, {
    content: bytes.toString("utf8"),
    hash: sha256(bytes),
    mtimeMs: 0,
    isPartialView: false,
  });
}

const labels = (prompt: ApprovalPrompt) => prompt.options.map((option) => `${option.key}. ${option.label}`);
const localFile = () => join(dir, ".keel", "settings.local.json");

describe("an edit inside the project", () => {
  it("shows the diff before the answer and offers acceptEdits for the session, never Edit(/**)", async () => {
    const file = join(dir, "greet.ts");
    writeFileSync(file, "export const greeting = 'hello';\nexport const n = 1;\n");
    readFile(file);
    const { prompt, isError, notes } = await ask(
      EditTool as Tool,
      { file_path: file, old_string: "'hello'", new_string: "'goodbye'" },
      { choose: () => "2" },
    );
    expect(prompt.title).toBe(`Edit(${file})`);
    expect(prompt.preview).toMatchObject({
      kind: "diff",
      summary: `Change ${file}: 1 line added, 1 removed`,
    });
    const patch = prompt.preview.kind === "diff" ? prompt.preview.patch : "";
    expect(patch).toContain("-export const greeting = 'hello';");
    expect(patch).toContain("+export const greeting = 'goodbye';");
    expect(labels(prompt)).toEqual([
      "1. Yes",
      "2. Yes, allow all edits during this session",
      "3. No, and tell the model what to do instead",
    ]);
    expect(prompt.options[1]?.detail).toMatch(/acceptEdits mode.*Nothing is saved/);
    expect(JSON.stringify(prompt)).not.toContain("Edit(/**)");
    // The answer: the edit ran, the session is in acceptEdits, nothing was written to settings.
    expect(isError).toBe(false);
    expect(readFileSync(file, "utf8")).toContain("goodbye");
    expect(context.getAppState().toolPermissionContext.mode).toBe("acceptEdits");
    expect(context.getAppState().toolPermissionContext.alwaysAllowRules).toEqual({});
    expect(existsSync(localFile())).toBe(false);
    expect(notes).toEqual([expect.stringMatching(/acceptEdits for this session/)]);
  });

  it("asked of a person (keel tool): no model to tell, no mode key to press; the reason in plain words", async () => {
    const file = join(dir, "greet.ts");
    writeFileSync(file, "export const greeting = 'hello';\n");
    readFile(file);
    const { prompt } = await ask(
      EditTool as Tool,
      { file_path: file, old_string: "'hello'", new_string: "'goodbye'" },
      { caller: "person" },
    );
    expect(labels(prompt)).toEqual(["1. Yes", "2. Yes, allow all edits during this session", "3. No"]);
    expect(prompt.options[1]?.detail).toBe(
      "Switches this session to acceptEdits mode: edits inside the working directories stop asking. Nothing is saved.",
    );
    expect(JSON.stringify(prompt)).not.toMatch(/model|Shift\+Tab/);
    expect(prompt.reason).not.toMatch(/default|no rule matched/);
  });

  it("a new file shows its content's head; a protected path offers only yes and no", async () => {
    const created = await ask(WriteTool as Tool, {
      file_path: join(dir, "new.txt"),
      content: Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join("\n"),
    });
    expect(created.prompt.preview).toMatchObject({
      kind: "diff",
      summary: expect.stringMatching(/^Create .*30 lines/),
    });
    expect(created.prompt.preview.kind === "diff" && created.prompt.preview.patch).toContain(
      "+line 1\n+line 2",
    );
    expect(created.isError).toBe(true);

    mkdirSync(join(dir, ".keel"));
    const guarded = await ask(WriteTool as Tool, { file_path: join(dir, ".keel", "x.json"), content: "{}" });
    expect(labels(guarded.prompt)).toEqual(["1. Yes", "2. No, and tell the model what to do instead"]);
  });
});

describe("a command", () => {
  it("shows the whole command and offers its prefix for this project, naming the file", async () => {
    const command = "npm run test -- --watch=false && echo done";
    const { prompt, isError } = await ask(BashTool as Tool, { command });
    expect(prompt.preview).toEqual({ kind: "command", command });
    expect(prompt.title).toBe("Bash command");
    expect(prompt.options[1]).toMatchObject({
      label: `Yes, and don't ask again for \`npm run test\` commands in ${dir}`,
      detail: `Adds the allow rule Bash(npm run test:*) to ${localFile()}.`,
    });
    expect(isError).toBe(true);
    expect(existsSync(localFile())).toBe(false);
  });

  it("the choice saves that rule in the local settings file and says where", async () => {
    const { isError, notes } = await ask(
      BashTool as Tool,
      { command: "touch made.txt" },
      { choose: () => "2" },
    );
    expect(isError).toBe(false);
    expect(existsSync(join(dir, "made.txt"))).toBe(true);
    expect(JSON.parse(readFileSync(localFile(), "utf8"))).toEqual({
      permissions: { allow: ["Bash(touch:*)"] },
    });
    expect(notes).toEqual([`Saved: allow Bash(touch:*) in ${localFile()}`]);
    expect(context.getAppState().toolPermissionContext.alwaysAllowRules).toEqual({
      local: ["Bash(touch:*)"],
    });
  });

  it("in an untrusted folder the same choice lasts for the session only and says so", async () => {
    const { prompt } = await ask(
      BashTool as Tool,
      { command: "mkdir build" },
      { persist: false, choose: () => "2" },
    );
    expect(prompt.options[1]).toMatchObject({
      label: "Yes, and don't ask again for `mkdir` commands during this session",
      detail:
        "Adds the allow rule Bash(mkdir:*) for this session only (this folder is not trusted, so nothing is saved).",
    });
    expect(existsSync(localFile())).toBe(false);
    expect(context.getAppState().toolPermissionContext.alwaysAllowRules).toEqual({
      session: ["Bash(mkdir:*)"],
    });
  });
});

describe("a read outside the working directories", () => {
  it("offers that folder for this session", async () => {
    const outside = realpathSync(mkdtempSync(join(tmpdir(), "keel-outside-")));
    writeFileSync(join(outside, "notes.txt"), "hi\n");
    try {
      const { prompt } = await ask(ReadTool as Tool, { file_path: join(outside, "notes.txt") });
      expect(prompt.options[1]).toMatchObject({
        label: `Yes, and don't ask again for reading files in ${outside}/ during this session`,
        detail: `Adds the allow rule Read(/${outside}/**) for this session only; nothing is saved.`,
      });
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});

// `keel hook codex`: PreToolUse and PermissionRequest events in the shape Codex documents (its hook
// schemas: session_id, turn_id, transcript_path, cwd, hook_event_name, model, permission_mode,
// tool_name, tool_input, tool_use_id). PreToolUse can only refuse; PermissionRequest may allow or deny.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { patchedFiles } from "./applyPatch.ts";
import { handleHookEvent } from "./handle.ts";
import { createHookWorld, type HookWorld } from "./testing/world.ts";

let world: HookWorld;
beforeAll(() => {
  world = createHookWorld({
    claudeUser: {
      permissions: { deny: ["Bash(rm:*)", "Edit(./build/**)", "mcp__evil"], allow: ["mcp__github"] },
    },
  });
});
afterAll(() => world.cleanup());

function codexEvent(
  hookEvent: string,
  toolName: string,
  toolInput: Record<string, unknown>,
  mode = "default",
) {
  return {
    session_id: "codex-thread",
    turn_id: "turn-1",
    transcript_path: null,
    cwd: world.project,
    hook_event_name: hookEvent,
    model: "gpt-5-codex",
    permission_mode: mode,
    tool_name: toolName,
    tool_input: toolInput,
    ...(hookEvent === "PreToolUse" ? { tool_use_id: "call_1" } : {}),
  };
}

type Answer = "allow" | "deny" | "silent";

function answerOf(stdout: string): Answer {
  if (stdout === "") return "silent";
  const output = JSON.parse(stdout).hookSpecificOutput;
  return output.hookEventName === "PermissionRequest" ? output.decision.behavior : output.permissionDecision;
}

const PATCH_ADD = "*** Begin Patch\n*** Add File: notes/new.md\n+hello\n*** End Patch\n";
const PATCH_BUILD =
  "*** Begin Patch\n*** Update File: README.md\n@@\n-hello\n+hi\n*** Delete File: build/out.txt\n*** End Patch";

/** Name, event, answer, and the stderr note expected (input Keel cannot read), if any. */
const ROWS: Array<[string, () => Record<string, unknown>, Answer, RegExp?]> = [
  [
    "PreToolUse Bash read-only: Codex takes no allow here, silence",
    () => codexEvent("PreToolUse", "Bash", { command: "git status && git diff" }),
    "silent",
  ],
  [
    "PreToolUse Bash under a deny rule: deny",
    () => codexEvent("PreToolUse", "Bash", { command: "timeout 5 rm -rf build" }),
    "deny",
  ],
  [
    "PreToolUse Bash a write: silence",
    () => codexEvent("PreToolUse", "Bash", { command: "touch x" }),
    "silent",
  ],
  [
    "PermissionRequest Bash read-only: allow",
    () => codexEvent("PermissionRequest", "Bash", { command: "ls src | head", description: "list" }),
    "allow",
  ],
  [
    "PermissionRequest Bash a write: silence (Codex asks)",
    () => codexEvent("PermissionRequest", "Bash", { command: "touch x" }),
    "silent",
  ],
  [
    "PermissionRequest Bash a write, acceptEdits: allow",
    () => codexEvent("PermissionRequest", "Bash", { command: "touch x" }, "acceptEdits"),
    "allow",
  ],
  [
    "PermissionRequest Bash under a deny rule: deny",
    () => codexEvent("PermissionRequest", "Bash", { command: "rm -rf build" }),
    "deny",
  ],
  [
    "PermissionRequest NetworkAccess: silence",
    () => codexEvent("PermissionRequest", "NetworkAccess", { command: "curl example.com" }),
    "silent",
  ],
  [
    "PreToolUse apply_patch adding a file: silence",
    () => codexEvent("PreToolUse", "apply_patch", { command: PATCH_ADD }),
    "silent",
  ],
  [
    "PreToolUse apply_patch deleting under an Edit deny rule: deny",
    () => codexEvent("PreToolUse", "apply_patch", { command: PATCH_BUILD }),
    "deny",
  ],
  [
    "PreToolUse apply_patch Keel cannot read: refused (PreToolUse cannot ask), and a note",
    () => codexEvent("PreToolUse", "apply_patch", { command: "not a patch" }),
    "deny",
    /^keel hook codex: apply_patch: no file headers Keel can read in the patch$/,
  ],
  [
    "PermissionRequest Bash without a command: silence (Codex's own prompt asks), and a note",
    () => codexEvent("PermissionRequest", "Bash", { description: "network-access example.com" }),
    "silent",
    /Bash: no command in the input/,
  ],
  [
    "PreToolUse mcp of a denied server: deny",
    () => codexEvent("PreToolUse", "mcp__evil__wipe", { all: true }),
    "deny",
  ],
  [
    "PreToolUse mcp of an allowed server: silence (no allow in PreToolUse)",
    () => codexEvent("PreToolUse", "mcp__github__list", {}),
    "silent",
  ],
];

describe("keel hook codex", () => {
  it.each(ROWS)("%s", async (_name, event, expected, note) => {
    const reply = await handleHookEvent("codex", JSON.stringify(event()), world.options());
    expect(answerOf(reply.stdout)).toBe(expected);
    if (note) expect(reply.note).toMatch(note);
    else expect(reply.note).toBeUndefined();
  });

  it("gives the model Keel's reason when it refuses", async () => {
    const reply = await handleHookEvent(
      "codex",
      JSON.stringify(codexEvent("PreToolUse", "Bash", { command: "rm -rf build" })),
      world.options(),
    );
    expect(JSON.parse(reply.stdout).hookSpecificOutput.permissionDecisionReason).toMatch(
      /Keel refused this call: .*Bash\(rm:\*\)/,
    );
  });

  it("bad input: silence and a note", async () => {
    const reply = await handleHookEvent(
      "codex",
      JSON.stringify({ hook_event_name: "Stop", cwd: "/" }),
      world.options(),
    );
    expect(reply.stdout).toBe("");
    expect(reply.note).toMatch(/unknown event Stop/);
  });
});

describe("the files of an apply_patch envelope", () => {
  it.each([
    ["add", PATCH_ADD, ["notes/new.md"]],
    ["update and delete", PATCH_BUILD, ["README.md", "build/out.txt"]],
    [
      "move",
      "*** Begin Patch\n*** Update File: a.ts\n*** Move to: b/a.ts\n@@\n-x\n+y\n*** End Patch",
      ["a.ts", "b/a.ts"],
    ],
    ["CRLF line ends", "*** Begin Patch\r\n*** Add File: c.txt\r\n+x\r\n*** End Patch\r\n", ["c.txt"]],
    ["no end marker: nothing", "*** Begin Patch\n*** Add File: d.txt\n+x\n", []],
    ["no begin marker: nothing", "*** Add File: e.txt\n*** End Patch", []],
    ["plain text: nothing", "hello", []],
  ])("%s", (_name, patch, files) => {
    expect(patchedFiles(patch)).toEqual(files);
  });

  it("resolves the files against Codex's cwd", async () => {
    const patch = `*** Begin Patch\n*** Add File: ${join("build", "new.txt")}\n+x\n*** End Patch`;
    const reply = await handleHookEvent(
      "codex",
      JSON.stringify({ ...codexEvent("PreToolUse", "apply_patch", { command: patch }), cwd: world.project }),
      world.options(),
    );
    expect(answerOf(reply.stdout)).toBe("deny");
  });
});

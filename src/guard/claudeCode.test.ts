// `keel hook claude-code` answers, table by table, for the events Claude Code 2.1.332 really sent
// (fixtures/claude-code-2.1.332.jsonl, recorded by scripts/record-claude-code-events.ts): every tool,
// each permission mode, allow / deny / no opinion, --strict, PermissionRequest, and bad input.
// Glob, Grep, LS and MultiEdit were not offered in the recorded session: their events are the recorded
// envelope with the tool input Claude Code documents (sdk-tools.d.ts of the package).
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Answer, answerOf, eventMaker } from "./testing/claudeCodeAnswers.ts";
import { expectHookRow, type HookRow } from "./testing/hookRows.ts";
import {
  createHookWorld,
  type HookWorld,
  type RecordedEvent,
  recordedClaudeCodeEvents,
} from "./testing/world.ts";

const SETTINGS = {
  permissions: {
    allow: ["WebFetch(domain:docs.example.com)", "mcp__everything"],
    deny: [
      "Bash(rm:*)",
      "Read(./secrets/**)",
      "Edit(./build/**)",
      "WebFetch(domain:evil.example)",
      "mcp__evil",
    ],
    ask: ["Bash(git push:*)"],
  },
};

let world: HookWorld;
let events: RecordedEvent[];
beforeAll(() => {
  world = createHookWorld({ claudeUser: SETTINGS });
  events = recordedClaudeCodeEvents(world);
});
afterAll(() => world.cleanup());

const { pre, documented, permissionRequest } = eventMaker(() => events);

type Row = HookRow<Answer>;

const P = () => world.project;

const ROWS: Row[] = [
  // Bash: the analyzer proves read-only compounds, rules see through wrappers, the rest is left to Claude Code.
  {
    // git diff may print any tracked file, secrets/ (under a Read deny rule) included: Keel asks.
    name: "Bash recorded: git status && git diff",
    event: () => pre("Bash"),
    expected: "ask",
  },
  {
    name: "Bash read-only git that prints no file contents",
    event: () => pre("Bash", { command: "git status && git log --oneline -n 5" }),
    expected: "allow",
    reason: /read-only/,
  },
  {
    name: "Bash read-only pipeline Claude Code itself asks about",
    event: () => pre("Bash", { command: "awk '{print $1}' README.md | sort | uniq -c" }),
    expected: "allow",
  },
  {
    name: "Bash deny rule behind a wrapper",
    event: () => pre("Bash", { command: "timeout 5 rm -rf build" }),
    expected: "deny",
    reason: /Keel refused this call: .*Bash\(rm:\*\)/,
  },
  {
    name: "Bash ask rule: Claude Code's ask",
    event: () => pre("Bash", { command: "git push origin main" }),
    expected: "ask",
  },
  {
    name: "Bash ask rule, --strict: ask",
    event: () => pre("Bash", { command: "git push origin main" }),
    strict: true,
    expected: "ask",
    reason: /Keel: .*git push/,
  },
  {
    name: "Bash a write, default mode: no opinion",
    event: () => pre("Bash", { command: "touch notes.txt" }),
    expected: "silent",
  },
  {
    name: "Bash a write, acceptEdits: allow",
    event: () => pre("Bash", { command: "touch notes.txt" }, "acceptEdits"),
    expected: "allow",
  },
  {
    name: "Bash a write, plan: deny",
    event: () => pre("Bash", { command: "touch notes.txt" }, "plan"),
    expected: "deny",
  },
  {
    name: "Bash read-only, plan: allow",
    event: () => pre("Bash", { command: "ls src" }, "plan"),
    expected: "allow",
  },
  {
    name: "Bash a write, bypassPermissions: allow",
    event: () => pre("Bash", { command: "touch notes.txt" }, "bypassPermissions"),
    expected: "allow",
  },
  {
    name: "Bash deny rule, bypassPermissions: still deny",
    event: () => pre("Bash", { command: "rm -rf build" }, "bypassPermissions"),
    expected: "deny",
  },
  {
    name: "Bash a write, dontAsk: deny, as keel check says",
    event: () => pre("Bash", { command: "touch notes.txt" }, "dontAsk"),
    expected: "deny",
  },
  {
    name: "Bash a write, dontAsk, --strict: deny",
    event: () => pre("Bash", { command: "touch notes.txt" }, "dontAsk"),
    strict: true,
    expected: "deny",
  },
  {
    name: "Bash reading outside the project: no opinion",
    event: () => pre("Bash", { command: `cat ${join(world.outside, "notes.txt")}` }),
    expected: "silent",
  },
  {
    name: "Bash dangerouslyDisableSandbox is not a reason to refuse a proof",
    event: () => pre("Bash", { command: "ls", dangerouslyDisableSandbox: true }),
    expected: "allow",
  },
  {
    name: "Bash a field Keel does not know: ask, and a note",
    event: () => pre("Bash", { command: "ls", shell: "zsh" }),
    expected: "ask",
    note: /^keel hook claude-code: Bash input has fields Keel does not know: shell$/,
  },
  {
    name: "Bash without a command: ask, and a note",
    event: () => pre("Bash", {}),
    expected: "ask",
    note: /^keel hook claude-code: Bash input Keel cannot read: command: /,
  },
  {
    name: "Bash a write, auto: left to Claude Code's classifier",
    event: () => pre("Bash", { command: "touch notes.txt" }, "auto"),
    expected: "silent",
  },
  {
    name: "Bash read-only, auto: allow",
    event: () => pre("Bash", { command: "git log --oneline -n 5" }, "auto"),
    expected: "allow",
  },
  {
    name: "Bash deny rule, auto: deny",
    event: () => pre("Bash", { command: "rm -rf build" }, "auto"),
    expected: "deny",
  },
  // Read and the search tools: path policy and path rules.
  { name: "Read recorded: README.md", event: () => pre("Read"), expected: "allow" },
  {
    name: "Read a denied path",
    event: () => pre("Read", { file_path: join(P(), "secrets/key.txt") }),
    expected: "deny",
    reason: /Read\(\.\/secrets\/\*\*\)/,
  },
  {
    name: "Read outside the working directories: no opinion",
    event: () => pre("Read", { file_path: join(world.outside, "notes.txt") }),
    expected: "silent",
  },
  { name: "Read, plan: allow", event: () => pre("Read", undefined, "plan"), expected: "allow" },
  {
    name: "Read allow_large does not change which file is read",
    event: () => pre("Read", { file_path: join(P(), "README.md"), allow_large: true }),
    expected: "allow",
  },
  {
    name: "Glob (documented input) in a folder no Read deny rule reaches",
    event: () => documented("Glob", { pattern: "**/*.ts", path: join(P(), "src") }),
    expected: "allow",
  },
  {
    // Keel's Glob would leave secrets/ out; Claude Code's own search is what runs.
    name: "Glob of the project, which holds secrets/ under a Read deny rule: ask",
    event: () => documented("Glob", { pattern: "**/*.ts" }),
    expected: "ask",
  },
  {
    name: "Glob outside the project: no opinion",
    event: () => documented("Glob", { pattern: "*", path: world.outside }),
    expected: "silent",
  },
  {
    name: "Grep (documented input, -o)",
    event: () =>
      documented("Grep", { pattern: "answer", path: join(P(), "src"), output_mode: "content", "-o": true }),
    expected: "allow",
  },
  {
    name: "Grep of the project, which holds secrets/ under a Read deny rule: ask",
    event: () => documented("Grep", { pattern: "answer", path: P(), output_mode: "content" }),
    expected: "ask",
  },
  {
    // Read(./secrets/**) covers what is inside secrets/, not the folder: Keel's Grep would search it
    // and find nothing; the agent's would read the files.
    name: "Grep inside the denied folder: ask",
    event: () => documented("Grep", { pattern: "key", path: join(P(), "secrets") }),
    expected: "ask",
  },
  {
    name: "LS (documented input)",
    event: () => documented("LS", { path: join(P(), "src") }),
    expected: "allow",
  },
  {
    name: "LS of the project, which holds secrets/: ask",
    event: () => documented("LS", { path: P() }),
    expected: "ask",
  },
  // The edit tools: acceptEdits inside the project, deny rules, protected paths even in bypass.
  { name: "Write recorded, default: no opinion", event: () => pre("Write"), expected: "silent" },
  {
    name: "Write recorded, acceptEdits: allow",
    event: () => pre("Write", undefined, "acceptEdits"),
    expected: "allow",
  },
  {
    name: "Write recorded, plan: deny",
    event: () => pre("Write", undefined, "plan"),
    expected: "deny",
    reason: /plan mode/,
  },
  {
    name: "Write recorded, bypassPermissions: allow",
    event: () => pre("Write", undefined, "bypassPermissions"),
    expected: "allow",
  },
  {
    name: "Write under an Edit deny rule",
    event: () => pre("Write", { file_path: join(P(), "build/out.txt"), content: "x" }, "acceptEdits"),
    expected: "deny",
  },
  {
    name: "Write .git/config, bypassPermissions: protected, Claude Code's ask",
    event: () => pre("Write", { file_path: join(P(), ".git/config"), content: "x" }, "bypassPermissions"),
    expected: "ask",
  },
  { name: "Edit recorded, default: no opinion", event: () => pre("Edit"), expected: "silent" },
  {
    name: "Edit recorded, acceptEdits: allow",
    event: () => pre("Edit", undefined, "acceptEdits"),
    expected: "allow",
  },
  {
    name: "MultiEdit (documented input), acceptEdits: allow",
    event: () =>
      documented(
        "MultiEdit",
        { file_path: join(P(), "README.md"), edits: [{ old_string: "hello", new_string: "hi" }] },
        "acceptEdits",
      ),
    expected: "allow",
  },
  {
    name: "NotebookEdit recorded, default: no opinion",
    event: () => pre("NotebookEdit"),
    expected: "silent",
  },
  {
    name: "NotebookEdit recorded, acceptEdits: allow",
    event: () => pre("NotebookEdit", undefined, "acceptEdits"),
    expected: "allow",
  },
  // The web tools: domain rules and private addresses.
  { name: "WebFetch recorded, no rule: no opinion", event: () => pre("WebFetch"), expected: "silent" },
  {
    name: "WebFetch under a domain allow rule",
    event: () => pre("WebFetch", { url: "https://docs.example.com/guide", prompt: "summary" }),
    expected: "allow",
  },
  {
    name: "WebFetch under a domain deny rule (a subdomain)",
    event: () => pre("WebFetch", { url: "https://api.evil.example/x", prompt: "p" }),
    expected: "deny",
  },
  {
    name: "WebFetch of a cloud metadata address",
    event: () => pre("WebFetch", { url: "http://169.254.169.254/latest/meta-data", prompt: "p" }),
    expected: "deny",
  },
  { name: "WebSearch recorded: no opinion", event: () => pre("WebSearch"), expected: "silent" },
  { name: "WebSearch recorded, --strict: ask", event: () => pre("WebSearch"), strict: true, expected: "ask" },
  // MCP tools, known only by name: rules decide.
  {
    name: "mcp recorded, server allowed by rule",
    event: () => pre("mcp__everything__echo"),
    expected: "allow",
  },
  {
    name: "mcp server denied by rule",
    event: () => ({ ...pre("mcp__everything__echo"), tool_name: "mcp__evil__drop_tables" }),
    expected: "deny",
  },
  {
    name: "mcp server without a rule: no opinion",
    event: () => ({ ...pre("mcp__everything__echo"), tool_name: "mcp__other__tool" }),
    expected: "silent",
  },
  {
    name: "mcp server without a rule, plan: ask (it may be read-only)",
    event: () => ({ ...pre("mcp__everything__echo", undefined, "plan"), tool_name: "mcp__other__tool" }),
    expected: "ask",
  },
  // Tools Keel does not judge.
  { name: "TodoWrite: no opinion", event: () => documented("TodoWrite", { todos: [] }), expected: "silent" },
  {
    name: "Agent: no opinion",
    event: () => documented("Agent", { prompt: "x", description: "y" }),
    expected: "silent",
  },
  // PermissionRequest: Claude Code's dialog is about to show; Keel answers only when it is sure.
  {
    name: "PermissionRequest Write recorded, default: no opinion",
    event: () => permissionRequest("Write"),
    expected: "silent",
  },
  {
    name: "PermissionRequest Write recorded, acceptEdits: allow",
    event: () => permissionRequest("Write", undefined, "acceptEdits"),
    expected: "allow",
  },
  {
    name: "PermissionRequest WebFetch denied domain: deny with a message",
    event: () => permissionRequest("WebFetch", { url: "https://evil.example/", prompt: "p" }),
    expected: "deny",
    reason: /Keel refused this call/,
  },
  {
    name: "PermissionRequest mcp recorded, allowed by rule",
    event: () => permissionRequest("mcp__everything__echo"),
    expected: "allow",
  },
  {
    name: "PermissionRequest, --strict: the dialog is the prompt, no opinion",
    event: () => permissionRequest("WebSearch"),
    strict: true,
    expected: "silent",
  },
];

describe("keel hook claude-code: recorded events", () => {
  it.each(ROWS.map((row) => [row.name, row] as const))("%s", async (_name, row) => {
    await expectHookRow("claude-code", row, world, answerOf);
  });

  it("records every decision in the audit log with the agent, the event and who decided", () => {
    const records = world.audit();
    expect(records.length).toBe(ROWS.length);
    const denied = records.find((record) => record.inputSummary.includes("timeout 5 rm -rf build"));
    expect(denied).toMatchObject({
      agent: "claude-code",
      hookEvent: "PreToolUse",
      tool: "Bash",
      behavior: "deny",
      decidedBy: "deny rule Bash(rm:*) from user settings",
      sessionId: "recorded-session",
    });
    const unjudged = records.find((record) => record.tool === "TodoWrite");
    expect(unjudged).toMatchObject({ behavior: "none", noOpinion: "Keel does not judge TodoWrite calls" });
    expect(records.filter((record) => record.hookEvent === "PermissionRequest").length).toBe(5);
  });
});

// `keel hook gemini-cli`: BeforeTool events in the shape Gemini CLI documents (docs/hooks/reference.md:
// session_id, transcript_path, cwd, hook_event_name, timestamp, tool_name, tool_input, mcp_context),
// with rules and mode from Keel's own settings. Answers: {"decision": "allow"}, {"decision": "deny",
// "reason"} or {} for no opinion.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handleHookEvent } from "./handle.ts";
import { expectHookRow, type HookRow } from "./testing/hookRows.ts";
import { createHookWorld, type HookWorld } from "./testing/world.ts";

const KEEL_SETTINGS = {
  permissions: {
    allow: ["WebFetch(domain:docs.example.com)", "mcp__github"],
    deny: ["Bash(rm:*)", "Read(./secrets/**)", "Edit(./build/**)", "WebSearch", "mcp__evil"],
  },
};

let world: HookWorld;
let acceptEdits: HookWorld;
beforeAll(() => {
  world = createHookWorld({ keelUser: KEEL_SETTINGS });
  acceptEdits = createHookWorld({
    keelUser: { ...KEEL_SETTINGS, permissions: { ...KEEL_SETTINGS.permissions, defaultMode: "acceptEdits" } },
  });
});
afterAll(() => {
  world.cleanup();
  acceptEdits.cleanup();
});

function beforeTool(
  target: HookWorld,
  toolName: string,
  toolInput: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) {
  return {
    session_id: "gemini-session",
    transcript_path: join(target.home, ".gemini", "tmp", "chats", "session.json"),
    cwd: target.project,
    hook_event_name: "BeforeTool",
    timestamp: "2026-11-25T10:00:00.000Z",
    tool_name: toolName,
    tool_input: toolInput,
    ...extra,
  };
}

type Answer = "allow" | "deny" | "silent";

function answerOf(stdout: string): { answer: Answer; reason: string } {
  const output = JSON.parse(stdout) as { decision?: string; reason?: string };
  if (output.decision === undefined) return { answer: "silent", reason: "" };
  return { answer: output.decision as Answer, reason: output.reason ?? "" };
}

type Row = HookRow<Answer>;

const p = (...parts: string[]) => join(world.project, ...parts);

const ROWS: Row[] = [
  {
    name: "run_shell_command read-only compound",
    event: () =>
      beforeTool(world, "run_shell_command", { command: "git status && ls src | head", description: "look" }),
    expected: "allow",
  },
  {
    name: "run_shell_command under a deny rule",
    event: () => beforeTool(world, "run_shell_command", { command: "timeout 5 rm -rf build" }),
    expected: "deny",
    reason: /Keel refused this call: .*Bash\(rm:\*\)/,
  },
  {
    name: "run_shell_command a write: no opinion",
    event: () => beforeTool(world, "run_shell_command", { command: "touch x" }),
    expected: "silent",
  },
  {
    name: "run_shell_command a write, --strict: refused, since BeforeTool cannot ask",
    event: () => beforeTool(world, "run_shell_command", { command: "touch x" }),
    strict: true,
    expected: "deny",
    reason: /cannot ask for/,
  },
  {
    name: "run_shell_command in a subfolder (dir_path)",
    event: () => beforeTool(world, "run_shell_command", { command: "cat ../README.md", dir_path: "src" }),
    expected: "allow",
  },
  {
    name: "run_shell_command whose dir_path leaves the project",
    event: () =>
      beforeTool(world, "run_shell_command", { command: "cat notes.txt", dir_path: world.outside }),
    expected: "silent",
  },
  {
    name: "read_file (file_path)",
    event: () => beforeTool(world, "read_file", { file_path: p("README.md") }),
    expected: "allow",
  },
  {
    name: "read_file (absolute_path, older releases)",
    event: () => beforeTool(world, "read_file", { absolute_path: p("README.md"), offset: 0, limit: 10 }),
    expected: "allow",
  },
  {
    name: "read_file a relative path, from the project",
    event: () => beforeTool(world, "read_file", { file_path: "src/app.ts" }),
    expected: "allow",
  },
  {
    name: "read_file under a deny rule",
    event: () => beforeTool(world, "read_file", { file_path: p("secrets", "key.txt") }),
    expected: "deny",
  },
  {
    name: "read_file outside: no opinion",
    event: () => beforeTool(world, "read_file", { file_path: join(world.outside, "notes.txt") }),
    expected: "silent",
  },
  {
    name: "read_file with a field Keel does not know: refused (Gemini cannot ask), and a note",
    event: () => beforeTool(world, "read_file", { file_path: p("README.md"), follow: "symlinks" }),
    expected: "deny",
    note: /^keel hook gemini-cli: read_file: read_file input has fields Keel does not know: follow$/,
  },
  {
    name: "read_file without a path: refused (Gemini cannot ask), and a note",
    event: () => beforeTool(world, "read_file", { offset: 3 }),
    expected: "deny",
    note: /no file_path in the input/,
  },
  {
    name: "write_file, default mode: no opinion",
    event: () => beforeTool(world, "write_file", { file_path: p("new.txt"), content: "x" }),
    expected: "silent",
  },
  {
    name: "write_file, acceptEdits from Keel's settings: allow",
    event: () =>
      beforeTool(acceptEdits, "write_file", {
        file_path: join(acceptEdits.project, "new.txt"),
        content: "x",
      }),
    expected: "allow",
  },
  {
    name: "write_file under an Edit deny rule",
    event: () => beforeTool(world, "write_file", { file_path: p("build", "out.txt"), content: "x" }),
    expected: "deny",
  },
  {
    name: "replace, acceptEdits: allow",
    event: () =>
      beforeTool(acceptEdits, "replace", {
        file_path: join(acceptEdits.project, "README.md"),
        old_string: "hello",
        new_string: "hi",
        expected_replacements: 1,
        instruction: "greet",
      }),
    expected: "allow",
  },
  {
    name: "replace of .git/config: protected, refused (Gemini cannot ask)",
    event: () =>
      beforeTool(acceptEdits, "replace", {
        file_path: join(acceptEdits.project, ".git", "config"),
        old_string: "[core]",
        new_string: "[x]",
      }),
    expected: "deny",
  },
  {
    name: "glob",
    event: () => beforeTool(world, "glob", { pattern: "**/*.ts", dir_path: "src" }),
    expected: "allow",
  },
  {
    name: "glob outside: no opinion",
    event: () => beforeTool(world, "glob", { pattern: "*", dir_path: world.outside }),
    expected: "silent",
  },
  {
    name: "search_file_content",
    event: () =>
      beforeTool(world, "search_file_content", { pattern: "answer", include: "*.ts", path: p("src") }),
    expected: "allow",
  },
  {
    // Keel's Grep would leave secrets/ (Read deny rule) out; Gemini's own search is what runs.
    name: "search_file_content of the project, which holds secrets/: refused (Gemini cannot ask)",
    event: () => beforeTool(world, "search_file_content", { pattern: "answer", include: "*.ts" }),
    expected: "deny",
  },
  {
    name: "grep_search (newer name) with its output and matching options",
    event: () =>
      beforeTool(world, "grep_search", {
        pattern: "answer",
        dir_path: p("src"),
        exclude_pattern: "test",
        names_only: true,
        case_sensitive: false,
        fixed_strings: true,
        context: 2,
        after: 1,
        before: 1,
        no_ignore: true,
        max_matches_per_file: 5,
        total_max_matches: 20,
      }),
    expected: "allow",
  },
  {
    name: "list_directory",
    event: () => beforeTool(world, "list_directory", { dir_path: p("src") }),
    expected: "allow",
  },
  {
    name: "web_fetch of an allowed domain",
    event: () =>
      beforeTool(world, "web_fetch", { prompt: "Summarize https://docs.example.com/guide please" }),
    expected: "allow",
  },
  {
    name: "web_fetch of two URLs, one not allowed: no opinion",
    event: () =>
      beforeTool(world, "web_fetch", {
        prompt: "Compare https://docs.example.com/a and https://other.example/b",
      }),
    expected: "silent",
  },
  {
    name: "web_fetch of a metadata address: deny",
    event: () => beforeTool(world, "web_fetch", { prompt: "Get http://169.254.169.254/latest/meta-data" }),
    expected: "deny",
  },
  {
    name: "web_fetch without a URL: refused (Gemini cannot ask), and a note",
    event: () => beforeTool(world, "web_fetch", { prompt: "what is new?" }),
    expected: "deny",
    note: /web_fetch: no URL in the prompt/,
  },
  {
    name: "google_web_search under a blanket deny",
    event: () => beforeTool(world, "google_web_search", { query: "keel" }),
    expected: "deny",
  },
  {
    name: "web_search (the name some releases use) under a blanket deny",
    event: () => beforeTool(world, "web_search", { query: "keel" }),
    expected: "deny",
  },
  {
    name: "an MCP tool named by mcp_context, allowed by rule",
    event: () =>
      beforeTool(
        world,
        "list_issues",
        { repo: "x" },
        { mcp_context: { server_name: "github", tool_name: "list_issues", command: "gh-mcp" } },
      ),
    expected: "allow",
  },
  {
    name: "an MCP tool of a denied server",
    event: () =>
      beforeTool(world, "evil__drop", {}, { mcp_context: { server_name: "evil", tool_name: "drop" } }),
    expected: "deny",
  },
  {
    name: "an MCP tool without a rule: no opinion",
    event: () => beforeTool(world, "other__x", {}, { mcp_context: { server_name: "other", tool_name: "x" } }),
    expected: "silent",
  },
  {
    name: "save_memory: no opinion",
    event: () => beforeTool(world, "save_memory", { fact: "x" }),
    expected: "silent",
  },
  {
    name: "read_many_files of plain paths: allow",
    event: () =>
      beforeTool(world, "read_many_files", { include: ["README.md", "src/"], exclude: [], recursive: true }),
    expected: "allow",
  },
  {
    name: "read_many_files of a path under a Read deny rule: deny",
    event: () => beforeTool(world, "read_many_files", { include: ["README.md", "secrets/key.txt"] }),
    expected: "deny",
    reason: /Read\(\.\/secrets\/\*\*\)/,
  },
  {
    name: "read_many_files of a glob over the project, which holds secrets/: refused (Gemini cannot ask)",
    event: () => beforeTool(world, "read_many_files", { include: ["**/*.md"] }),
    expected: "deny",
  },
];

describe("keel hook gemini-cli", () => {
  it.each(ROWS.map((row) => [row.name, row] as const))("%s", async (_name, row) => {
    const target = row.name.includes("acceptEdits") || row.name.includes(".git/config") ? acceptEdits : world;
    await expectHookRow("gemini-cli", row, target, answerOf);
  });

  it("records decisions for gemini-cli with the tool as Gemini names it", () => {
    const records = world.audit();
    expect(records.find((record) => record.inputSummary.includes("timeout 5 rm -rf build"))).toMatchObject({
      agent: "gemini-cli",
      hookEvent: "BeforeTool",
      tool: "run_shell_command",
      behavior: "deny",
    });
  });

  it("an event it does not answer: {} and a note", async () => {
    const input = JSON.stringify({ hook_event_name: "AfterTool", tool_name: "x", tool_input: {}, cwd: "/" });
    const reply = await handleHookEvent("gemini-cli", input, world.options());
    expect(reply).toMatchObject({ stdout: "{}", exitCode: 0 });
    expect(reply.note).toMatch(/unknown event AfterTool/);
  });

  it.each([
    ["not JSON", "nope", /not JSON/],
    [
      "no cwd",
      JSON.stringify({ hook_event_name: "BeforeTool", tool_name: "read_file", tool_input: {} }),
      /no cwd/,
    ],
  ])("bad input (%s): exit 2 (Gemini's block) and the reason on stderr", async (_name, input, note) => {
    const reply = await handleHookEvent("gemini-cli", input, world.options());
    expect(reply).toMatchObject({ stdout: "", exitCode: 2 });
    expect(reply.note).toMatch(note);
    expect(reply.note).toMatch(/refuses the call/);
  });
});

// Records the hook events the real Claude Code sends (PreToolUse, PermissionRequest) for each tool, as
// fixtures for src/guard tests: a recording hook appends every event's stdin, with the temporary
// paths and ids replaced by $PROJECT, $HOME and fixed ids.
//
//   node scripts/record-claude-code-events.ts   (writes src/guard/fixtures/claude-code-<version>.jsonl)
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startAnthropicServer } from "../src/agent/testing/anthropicServer.ts";
import {
  CLAUDE_CODE_VERSION,
  claudeEnv,
  installClaudeCode,
  makeWorld,
  REPO,
  runClaude,
  toolCallScript,
  writeJson,
} from "./claude-code/harness.ts";

const world = makeWorld("keel-claude-code-record-");
const { home, project } = world;
const events = join(world.base, "events.jsonl");
writeFileSync(
  join(project, "nb.ipynb"),
  JSON.stringify({
    cells: [{ cell_type: "code", id: "c1", source: ["1"], metadata: {}, outputs: [], execution_count: null }],
    metadata: {},
    nbformat: 4,
    nbformat_minor: 5,
  }),
);
const appendStdin = `let s="";process.stdin.on("data",d=>s+=d).on("end",()=>require("fs").appendFileSync(${JSON.stringify(events)},s.trim()+"\\n"))`;
const recorder = `${JSON.stringify(process.execPath)} -e '${appendStdin}'`;
const recordAll = [{ matcher: "*", hooks: [{ type: "command", command: recorder }] }];
writeJson(join(home, ".claude", "settings.json"), {
  hooks: { PreToolUse: recordAll, PermissionRequest: recordAll },
});
const mcpConfig = join(world.base, "mcp.json");
writeJson(mcpConfig, {
  mcpServers: {
    everything: {
      command: process.execPath,
      args: [join(REPO, "node_modules/@modelcontextprotocol/server-everything/dist/index.js")],
    },
  },
});

const calls = [
  { name: "Bash", input: { command: "git status && git diff", description: "Show status and changes" } },
  { name: "Read", input: { file_path: join(project, "README.md") } },
  { name: "Read", input: { file_path: join(project, "nb.ipynb") } },
  {
    name: "NotebookEdit",
    input: { notebook_path: join(project, "nb.ipynb"), cell_id: "c1", new_source: "2" },
  },
  { name: "Write", input: { file_path: join(project, "new.txt"), content: "new\n" } },
  {
    name: "Edit",
    input: { file_path: join(project, "README.md"), old_string: "keel demo", new_string: "keel" },
  },
  { name: "Glob", input: { pattern: "**/*.ts" } },
  { name: "Grep", input: { pattern: "answer", path: project, output_mode: "content" } },
  { name: "WebFetch", input: { url: "https://example.com/", prompt: "What is the title?" } },
  { name: "WebSearch", input: { query: "keel hook" } },
  { name: "mcp__everything__echo", input: { message: "hello" } },
];

const binary = installClaudeCode();
const { script, results } = toolCallScript(calls);
const server = await startAnthropicServer({ script });
const run = await runClaude(binary, world, claudeEnv(world, server.url), "Use the tools.", {
  extra: ["--mcp-config", mcpConfig],
});
await server.close();
if (run.status !== 0) throw new Error(`claude exited ${run.status ?? run.signal}: ${run.stderr}`);
for (const result of results)
  process.stdout.write(
    `${result.toolUseId}: ${result.isError ? "error " : ""}${result.text.slice(0, 100).replace(/\s+/g, " ")}\n`,
  );

if (!existsSync(events)) throw new Error("no events were recorded");
const lines = readFileSync(events, "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => {
    const event = JSON.parse(line) as Record<string, unknown>;
    event.session_id = "recorded-session";
    if (typeof event.prompt_id === "string") event.prompt_id = "recorded-prompt";
    if (typeof event.transcript_path === "string")
      event.transcript_path = join(home, ".claude", "projects", "recorded", "recorded-session.jsonl");
    // Paths of this run become placeholders the tests fill in with their own folders.
    return JSON.stringify(event).split(project).join("$PROJECT").split(home).join("$HOME");
  });
const version =
  spawnSync(binary, ["--version"], { encoding: "utf8" }).stdout.trim().split(" ")[0] ?? CLAUDE_CODE_VERSION;
const out = join(REPO, "src/guard/fixtures", `claude-code-${version}.jsonl`);
writeFileSync(out, `${lines.join("\n")}\n`);
process.stdout.write(`${lines.length} events -> ${out}\n`);
rmSync(world.base, { recursive: true, force: true });

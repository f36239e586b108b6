// What a new user meets when they get something wrong: every kind of bad input is one line on stderr
// that says what is wrong and what to do, a non-zero exit code, no stack trace, and nothing run.
// Real `keel` processes; the agent's cases against the scripted model server.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliProviderArgs, startServer } from "../agent/testing/harness.ts";
import { text } from "../agent/testing/script.ts";
import type { ScriptedServer } from "../agent/testing/server.ts";
import { type KeelWorld, removeWorld, runKeel, suiteKeelWorld } from "./testing/keelProcess.ts";

let server: ScriptedServer;
let w: KeelWorld;

beforeAll(async () => {
  server = await startServer("anthropic", () => ({ blocks: [text("the model was asked")] }));
  w = suiteKeelWorld();
  writeFileSync(join(w.project, "notes.txt"), "alpha\n");
  writeFileSync(join(w.root, "broken.json"), '{"permissions": {"allow": ["Read",]}}');
  writeFileSync(join(w.root, "bad-mode.json"), '{"permissions": {"defaultMode": "yolo"}}');
  mkdirSync(join(w.root, "a-file-not-a-folder.txt"));
});
afterAll(async () => {
  await server?.close();
  if (w) removeWorld(w);
});

const notes = () => JSON.stringify({ file_path: join(w.project, "notes.txt") });
const agent = () => ["run", ...cliProviderArgs(server)];

/** [what, args, exit code, the first line (after "keel: "), how many lines (default 1)] */
const CASES: Array<[string, () => string[], number, RegExp, number?]> = [
  [
    "bad JSON input",
    () => ["tool", "Read", '{"file_path": '],
    2,
    /^The tool input is not valid JSON .* Pass one JSON object/,
  ],
  [
    "an unknown tool",
    () => ["tool", "Raed", "{}"],
    2,
    /^No tool named "Raed"; did you mean "Read"\? Available tools: /,
  ],
  [
    "check of an unknown tool",
    () => ["check", "Raed", "{}"],
    2,
    /^No tool named "Raed"; did you mean "Read"\?/,
  ],
  [
    "a missing file",
    () => ["tool", "Read", JSON.stringify({ file_path: join(w.project, "nope.txt") })],
    1,
    /^File does not exist: .*nope\.txt\. Did you mean .*notes\.txt\? The current working directory is /,
  ],
  [
    "an unknown option",
    () => ["tool", "--alow", "Read", "Read", notes()],
    2,
    /^unknown option '--alow' \(Did you mean --allow\?\) \(see keel tool --help\)$/,
  ],
  [
    "too many arguments",
    () => ["tool", "Read", notes(), "extra"],
    2,
    /^too many arguments for 'tool'\. .* \(see keel tool --help\)$/,
  ],
  ["a missing argument", () => ["check"], 2, /^missing required argument 'name' \(see keel check --help\)$/],
  [
    "a bad number",
    () => [...agent(), "--max-turns", "abc", "hi"],
    2,
    /^option '--max-turns <n>' argument 'abc' is invalid\. .* \(see keel run --help\)$/,
  ],
  [
    "a bad mode",
    () => ["tool", "Read", notes(), "--mode", "yolo"],
    2,
    /^--mode: Unknown permission mode "yolo"\. Use one of: default, /,
  ],
  [
    "a bad rule",
    () => ["tool", "Read", notes(), "--allow", "Bash(ls"],
    2,
    /^--allow: Invalid permission rule "Bash\(ls": .* Write each rule as Tool or Tool\(specifier\)/,
  ],
  [
    "a bad rule under Claude Code's flag",
    () => [...agent(), "--allowedTools", "Read(", "--", "hi"],
    2,
    /^--allowedTools: Invalid permission rule "Read\("/,
  ],
  [
    "an unknown output format",
    () => [...agent(), "--output-format", "xml", "hi"],
    2,
    /^Unknown --output-format "xml"\. Use text, json or stream-json\.$/,
  ],
  [
    "an unknown provider",
    () => [...agent(), "--provider", "foo", "hi"],
    2,
    /^Unknown provider "foo" \(--provider\)\. Use anthropic or openai/,
  ],
  [
    "a --cwd that does not exist",
    () => ["tool", "--cwd", join(w.root, "nope"), "Read", notes()],
    2,
    /^--cwd .*nope: no such folder\. Give the project folder to work in\.$/,
  ],
  [
    "a --cwd that is a file",
    () => [...agent(), "--cwd", join(w.project, "notes.txt"), "hi"],
    2,
    /^--cwd .*notes\.txt: no such folder\./,
  ],
  [
    "a missing --settings file",
    () => ["tool", "Read", notes(), "--settings", join(w.root, "nope.json")],
    2,
    /^.*nope\.json:1:1: file not found \(--settings\)\. Fix the settings file/,
  ],
  [
    "a --settings file with a JSON error",
    () => ["tool", "Read", notes(), "--settings", join(w.root, "broken.json")],
    2,
    /^.*broken\.json:1:35: invalid JSON: .* Fix the settings file \(or move it away\)/,
  ],
  [
    "a --settings file with a bad value",
    () => ["permissions", "--settings", join(w.root, "bad-mode.json")],
    2,
    /^.*bad-mode\.json:1:33: permissions\.defaultMode: Invalid option: expected one of/,
  ],
  [
    "bad inline --mcp-config",
    () => [...agent(), "--mcp-config", "{bad", "hi"],
    2,
    /^--mcp-config \(inline JSON\): invalid JSON/,
  ],
  [
    "a mistyped command",
    () => ["tols"],
    2,
    /^Unknown command "tols"; did you mean `keel tools`\? \(To send it to the agent as a prompt instead: keel -- tols\)$/,
  ],
  [
    "an option before the command that it does not take",
    () => ["--model", "x", "tool", "Read", notes()],
    2,
    /^--model was given before the command name, and keel tool has no --model there\. Put the options after the command name \(see keel tool --help\)\.$/,
  ],
  [
    "trust of a missing folder",
    () => ["trust", join(w.root, "nope")],
    2,
    /^.*nope does not exist\. Give the project folder to trust/,
  ],
  [
    "a bad --http address",
    () => ["mcp", "--http", "notaport"],
    2,
    /^--http expects \[host:\]port, e.g\. 8765/,
  ],
  [
    "stream-json input without stream-json output",
    () => [...agent(), "--input-format", "stream-json"],
    2,
    /^--input-format stream-json needs --output-format stream-json\.$/,
  ],
  [
    "an unknown session to resume",
    () => [...agent(), "--resume", "no-such-id", "hi"],
    2,
    /^No saved sessions for this project \(looked in .*\); leave out --continue\/--resume to start one\.$/,
  ],
  [
    "an unknown hook agent",
    () => ["hook", "install", "frobnicator"],
    2,
    /^unknown agent "frobnicator"; use one of: claude-code, gemini-cli, codex$/,
  ],
  [
    "a lone Edit",
    () => [
      "tool",
      "Edit",
      JSON.stringify({ file_path: join(w.project, "notes.txt"), old_string: "alpha", new_string: "beta" }),
      "--allow",
      "Edit",
    ],
    1,
    /^each `keel tool` call is a session of its own, .* `keel tool --jsonl`/,
    2,
  ],
];

describe("bad input: one line with the next step, a non-zero exit, no stack trace", () => {
  it.each(CASES)("%s", async (_what, args, code, first, count = 1) => {
    const before = server.requests.length;
    const result = await runKeel(args(), w);
    expect(result.code, result.stderr).toBe(code);
    expect(result.stderr).not.toMatch(/^\s+at /m);
    const lines = result.stderr.trimEnd().split("\n");
    expect(lines, result.stderr).toHaveLength(count);
    expect(lines[0]!.replace(/^keel: /, "")).toMatch(first);
    expect(result.stdout).toBe("");
    expect(server.requests.length).toBe(before);
  });
});

// The real `keel` in a pseudo-terminal (tmux): /help lists the project's custom commands with their
// descriptions, `/name args` sends the expanded command (its allowed-tools let the model's calls run
// without a dialog while it answers), /memory lists, adds to, shows and edits memory files (the editor
// is $EDITOR, here a script).
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempFolderForTest } from "../../tool/testing/tempFolder.ts";
import { firstUserText } from "../../tools/agent/testing.ts";
import { startServer, TEST_KEY } from "../testing/harness.ts";
import { text, toolUse } from "../testing/script.ts";
import type { ScriptedServer } from "../testing/server.ts";

const hasTmux = spawnSync("tmux", ["-V"]).status === 0;
const ENTRY = join(import.meta.dirname, "..", "..", "cli", "entry.ts");
const SOCKET = `keel-ui-commands-${process.pid}`;

function tmux(...args: string[]): string {
  return execFileSync("tmux", ["-L", SOCKET, ...args], { encoding: "utf8" });
}
function screen(): string {
  return tmux("capture-pane", "-p", "-J", "-t", "keel", "-S", "-300");
}
async function waitFor(pattern: RegExp, what: string): Promise<string> {
  let last = "";
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    last = screen();
    if (pattern.test(last)) return last;
    if (/EXITED \d+/.test(last)) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}; the screen shows:\n${last}`);
}
const quote = (value: string) => `'${value.replace(/'/g, "'\\''")}'`;
const type = (line: string) => tmux("send-keys", "-t", "keel", "-l", line);
const enter = () => tmux("send-keys", "-t", "keel", "Enter");

describe.skipIf(!hasTmux)("custom commands and /memory in the terminal UI (tmux)", () => {
  let server: ScriptedServer;
  let project: string;
  let home: string;
  let hookInputs: string;

  beforeAll(async () => {
    const root = tempFolderForTest("keel-ui-commands-");
    project = join(root, "project");
    home = join(root, "home");
    mkdirSync(join(project, ".claude", "commands", "git"), { recursive: true });
    mkdirSync(home);
    writeFileSync(
      join(project, ".claude", "commands", "git", "summary.md"),
      "---\ndescription: Summarize recent work\nargument-hint: <topic>\n---\nSummarize $ARGUMENTS. Today: !`echo from-the-shell`",
    );
    writeFileSync(
      join(project, ".claude", "commands", "stamp.md"),
      "---\ndescription: Stamp a file\nallowed-tools: Bash(touch:*)\n---\nStamp the file $1.",
    );
    writeFileSync(join(project, "CLAUDE.md"), "# Project rules\n");
    hookInputs = join(root, "hook-inputs.jsonl");
    const record = `cat >> ${quote(hookInputs)}; echo >> ${quote(hookInputs)}`;
    writeFileSync(
      join(project, ".claude", "settings.json"),
      JSON.stringify({
        hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: record }] }] },
      }),
    );
    const editor = join(root, "editor.sh");
    writeFileSync(editor, '#!/bin/sh\necho "- written in the editor" >> "$1"\n');
    chmodSync(editor, 0o755);
    // "Stamp the file X." gets a Bash call touching X, then "Stamped."; anything else a summary.
    server = await startServer("anthropic", (request) => {
      const last = JSON.stringify((request.body.messages as unknown[] | undefined)?.at(-1) ?? "");
      if (last.includes('"tool_result"')) return { blocks: [text("Stamped.")] };
      const stamp = /Stamp the file (\S+)\./.exec(last);
      if (stamp) return { blocks: [toolUse("Bash", { command: `touch ${stamp[1]}` })] };
      return { blocks: [text("Summary done.")] };
    });
    const env = [
      `PATH=${quote(process.env.PATH ?? "")}`,
      `HOME=${quote(home)}`,
      `KEEL_HOME=${quote(home)}`,
      `KEEL_MANAGED_SETTINGS=${quote(join(root, "none.json"))}`,
      `ANTHROPIC_API_KEY=${TEST_KEY}`,
      `EDITOR=${quote(editor)}`,
      "TERM=xterm-256color",
    ].join(" ");
    const command = `cd ${quote(project)} && env -i ${env} ${quote(process.execPath)} ${quote(ENTRY)} --provider anthropic --base-url ${server.url} --model claude-test --trust; echo "EXITED $?"; sleep 60`;
    tmux("new-session", "-d", "-s", "keel", "-x", "160", "-y", "50", command);
  });

  afterAll(async () => {
    try {
      tmux("kill-server");
    } catch {
      // Already gone.
    }
    await server?.close();
  });

  it("lists, runs and edits", async () => {
    await waitFor(/\/help/, "the status line");
    type("/help");
    enter();
    const help = await waitFor(/Custom commands:/, "/help");
    expect(help).toMatch(/\/git:summary <topic>\s+Summarize recent work \(project\)/);
    expect(help).toMatch(/\/memory/);

    type("/git:summary the release");
    enter();
    await waitFor(/Summary done\./, "the answer to the command");
    expect(firstUserText(server.requests.at(-1)!)).toBe("Summarize the release. Today: from-the-shell");
    // The command's `!` line went through the hooks, which got the terminal session's real transcript.
    const hook = JSON.parse(readFileSync(hookInputs, "utf8").trim().split("\n")[0]!) as Record<
      string,
      string
    >;
    expect(hook).toMatchObject({ hook_event_name: "PreToolUse", permission_mode: "default", cwd: project });
    expect(readFileSync(hook.transcript_path!, "utf8")).toContain("Summarize the release");

    type("/stamp ui-stamped");
    enter();
    await waitFor(/Stamped\./, "the answer after the command's Bash call");
    expect(existsSync(join(project, "ui-stamped"))).toBe(true);

    type("/memory");
    enter();
    const listing = await waitFor(/Memory files/, "/memory");
    expect(listing).toMatch(/1\. project instructions: .*CLAUDE\.md/);
    type("/memory add 1 Run the tests before committing");
    enter();
    await waitFor(/Added to .*CLAUDE\.md/, "/memory add");
    type("/memory edit 1");
    enter();
    await waitFor(/Edited .*CLAUDE\.md/, "/memory edit");
    expect(readFileSync(join(project, "CLAUDE.md"), "utf8")).toBe(
      "# Project rules\n- Run the tests before committing\n- written in the editor\n",
    );
    type("/memory show 1");
    enter();
    await waitFor(/- written in the editor/, "/memory show");

    type("/exit");
    enter();
    await waitFor(/EXITED 0/, "the program to exit");
  });
});

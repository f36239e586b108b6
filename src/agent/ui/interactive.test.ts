// The real `keel` program in a pseudo-terminal (tmux), against a scripted Anthropic server: a prompt,
// a tool call whose permission dialog is answered, streaming, Ctrl-C, slash commands, /exit.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, TEST_KEY } from "../testing/harness.ts";
import { type ScriptTurn, text, toolUse } from "../testing/script.ts";
import type { ScriptedServer } from "../testing/server.ts";

const hasTmux = spawnSync("tmux", ["-V"]).status === 0;
const ENTRY = join(import.meta.dirname, "..", "..", "cli", "entry.ts");
const SOCKET = `keel-ui-test-${process.pid}`;

function tmux(...args: string[]): string {
  return execFileSync("tmux", ["-L", SOCKET, ...args], { encoding: "utf8" });
}

function screen(): string {
  return tmux("capture-pane", "-p", "-t", "keel", "-S", "-200");
}

async function waitFor(pattern: RegExp, what: string): Promise<string> {
  let last = "";
  for (let i = 0; i < 200; i++) {
    last = screen();
    if (pattern.test(last)) return last;
    if (/EXITED \d+/.test(last)) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}; the screen shows:\n${last}`);
}

function quote(value: string): string {
  return `'${value.replace(/'/g, "'\\''")}'`;
}

describe.skipIf(!hasTmux)("keel interactive (in tmux)", () => {
  let server: ScriptedServer;
  let project: string;
  let home: string;
  const turns: ScriptTurn[] = [];

  beforeAll(async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), "keel-ui-")));
    project = join(root, "project");
    home = join(root, "home");
    mkdirSync(project);
    mkdirSync(home);
    turns.push(
      {
        blocks: [
          text("I will write the file."),
          toolUse("Write", { file_path: join(project, "hello.txt"), content: "hi\n" }),
        ],
      },
      { blocks: [text("The file is written.")] },
      { blocks: [text("Thinking out loud"), text("this never arrives")], hangAfterBlocks: 1 },
    );
    let played = 0;
    server = await startServer("anthropic", () => turns[played++] ?? { blocks: [text("(no more turns)")] });
    const env = [
      `PATH=${quote(process.env.PATH ?? "")}`,
      `HOME=${quote(home)}`,
      `KEEL_HOME=${quote(home)}`,
      `KEEL_MANAGED_SETTINGS=${quote(join(root, "none.json"))}`,
      `ANTHROPIC_API_KEY=${TEST_KEY}`,
      "TERM=xterm-256color",
    ].join(" ");
    const command = `cd ${quote(project)} && env -i ${env} ${quote(process.execPath)} ${quote(ENTRY)} --provider anthropic --base-url ${server.url} --model claude-test; echo "EXITED $?"; sleep 60`;
    tmux("new-session", "-d", "-s", "keel", "-x", "110", "-y", "40", command);
  });

  afterAll(async () => {
    try {
      tmux("kill-server");
    } catch {
      // Already gone.
    }
    await server?.close();
  });

  it("answers a prompt, asks before a tool runs, streams, stops on Ctrl-C and exits", async () => {
    await waitFor(/\/help/, "the status line");

    tmux("send-keys", "-t", "keel", "write hello.txt", "Enter");
    const dialog = await waitFor(/Allow Write\(/, "the permission dialog");
    expect(dialog).toContain("y  yes, this once");
    expect(dialog).toMatch(/n {2}no/);
    expect(existsSync(join(project, "hello.txt"))).toBe(false);

    tmux("send-keys", "-t", "keel", "y");
    const done = await waitFor(/The file is written\./, "the answer after the tool");
    expect(readFileSync(join(project, "hello.txt"), "utf8")).toBe("hi\n");
    expect(done).toMatch(/● Write\(.*hello\.txt\)/);
    expect(done).toMatch(/\+hi/);

    tmux("send-keys", "-t", "keel", "keep talking", "Enter");
    await waitFor(/Thinking out loud/, "streamed text");
    tmux("send-keys", "-t", "keel", "C-c");
    await waitFor(/Interrupted\./, "the interruption notice");
    for (let i = 0; i < 200 && server.clientClosed.length === 0; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(server.clientClosed).toEqual([2]);

    tmux("send-keys", "-t", "keel", "/cost", "Enter");
    await waitFor(/Tokens: 200 in, 40 out/, "/cost");

    tmux("send-keys", "-t", "keel", "/exit", "Enter");
    await waitFor(/EXITED 0/, "the program to exit");
  });
});

// Claude Code's habits in the real `keel` terminal UI (tmux), against the scripted model server: `!cmd`
// through Keel's decision (a read-only command runs, one that changes files asks), `@file` with Tab
// completion, /status, /mcp (a real MCP server and a broken one), /model checked against the provider,
// /init, /resume of an earlier session; and how it draws: a space after ⎿, the refusal after the refused
// call, no stale border after the terminal shrinks. Also `keel tool`'s line prompter on a terminal.
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
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { trustFolder } from "../../settings/trust.ts";
import { startServer } from "../testing/harness.ts";
import { type RecordedRequest, type ScriptTurn, text, toolUse } from "../testing/script.ts";
import type { ScriptedServer } from "../testing/server.ts";
import { hasTmux, isToolResultTurn, TmuxKeel } from "./testing/tmuxSession.ts";

const REPO = join(import.meta.dirname, "..", "..", "..");
const FILESYSTEM_SERVER = join(REPO, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");

/** Everything the model was sent in a request, as one string. */
const sent = (request: RecordedRequest) => JSON.stringify(request.body.messages);

describe.skipIf(!hasTmux)("Claude Code's habits in the terminal UI (tmux)", () => {
  let server: ScriptedServer;
  let root: string;
  let project: string;
  let home: string;
  const keel = new TmuxKeel("habits");

  /** The person's prompt: the last text block of the last message (context the UI added comes before it). */
  function promptOf(request: RecordedRequest): string {
    const last = (request.body.messages as Array<{ content: unknown }>).at(-1)?.content;
    if (typeof last === "string") return last;
    const texts = (last as Array<{ type: string; text?: string }>).filter((block) => block.type === "text");
    return texts.at(-1)?.text ?? "";
  }

  function reply(request: RecordedRequest): ScriptTurn {
    if (isToolResultTurn(request)) return { blocks: [text("Tool finished.")] };
    const prompt = promptOf(request);
    if (prompt.includes("write a CLAUDE.md file"))
      return {
        blocks: [
          toolUse("Write", {
            file_path: join(project, "CLAUDE.md"),
            content: "# CLAUDE.md\n\nRun: npm test\n",
          }),
        ],
      };
    if (prompt.startsWith("write refused"))
      return { blocks: [toolUse("Write", { file_path: join(project, "refused.txt"), content: "no\n" })] };
    return { blocks: [text(`Answered: ${prompt.split("\n")[0]}`)] };
  }

  beforeAll(async () => {
    root = realpathSync(mkdtempSync(join(tmpdir(), "keel-ui-habits-")));
    project = join(root, "project");
    home = join(root, "home");
    mkdirSync(join(project, "docs"), { recursive: true });
    mkdirSync(home);
    writeFileSync(join(project, "README.md"), "# Demo\nThe readme says hello.\n");
    writeFileSync(join(project, "docs", "guide.md"), "guide\n");
    trustFolder(project, { KEEL_HOME: home });
    server = await startServer("anthropic", reply);
    // An earlier session of this project, for /resume.
    keel.start({ project, home, server });
    await keel.waitFor(/\/help/, "the status line");
    await keel.prompt("the earlier session's question");
    await keel.waitFor(/Answered: the earlier session's question/, "the earlier answer");
    await keel.prompt("/exit");
    await keel.waitFor(/EXITED 0/, "the first session to end");
    const mcp = JSON.stringify({
      mcpServers: {
        files: { command: process.execPath, args: [FILESYSTEM_SERVER, project] },
        broken: { command: join(root, "no-such-server") },
      },
    });
    keel.start({ project, home, server, args: ["--mcp-config", mcp] });
    await keel.waitFor(/\/help/, "the status line");
  });

  afterAll(async () => {
    keel.kill();
    await server?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it("!command runs through Keel's decision: a read-only one runs, one that writes asks; the model gets it", async () => {
    await keel.prompt("!echo hello-from-the-shell && ls docs");
    const shown = await keel.waitFor(/⎿ hello-from-the-shell/, "the command's output");
    expect(shown).toMatch(/> ! echo hello-from-the-shell && ls docs/);
    expect(shown).toMatch(/● Bash\(echo hello-from-the-shell && ls docs\)/);
    expect(shown).not.toMatch(/Unknown command/);

    await keel.prompt("!touch made-by-bang");
    const dialog = await keel.waitFor(
      /Do you want to proceed\?/,
      "the approval of a command that writes",
      () => keel.bottom(30),
    );
    expect(dialog).toMatch(/\$ touch made-by-bang/);
    expect(dialog).toMatch(/Bash needs approval: touch changes files +│/);
    expect(dialog).not.toMatch(/no rule matched/);
    // The person typed it: no model to tell what to do instead.
    expect(dialog).toMatch(/3\. No \(esc\)/);
    expect(dialog).not.toMatch(/tell the model/);
    expect(existsSync(join(project, "made-by-bang"))).toBe(false);
    keel.send("1");
    await keel.waitFor(/● Bash\(touch made-by-bang\)/, "the command to run once allowed");
    expect(existsSync(join(project, "made-by-bang"))).toBe(true);

    await keel.prompt("what did I run");
    await keel.waitFor(/Answered: what did I run/, "the answer");
    const request = sent(server.requests.at(-1)!);
    expect(request).toContain("<bash-input>echo hello-from-the-shell && ls docs</bash-input>");
    expect(request).toContain("hello-from-the-shell\\nguide.md");
    expect(request).toContain("<bash-input>touch made-by-bang</bash-input>");
  });

  it("@path: suggestions while typing, Tab completes, and the file goes to the model", async () => {
    await keel.waitFor(/^(?!working…|starting…)/, "the agent to be idle", () => keel.bottom(1));
    keel.type("explain @READ");
    await keel.waitFor(/@README\.md\n.*Tab completes the first/, "the suggestion", () => keel.bottom(6));
    keel.send("Tab");
    await keel.waitFor(/> explain @README\.md /, "the completed path", () => keel.bottom(8));
    keel.type("and @do");
    await keel.waitFor(/@docs\//, "the folder suggestion", () => keel.bottom(6));
    keel.send("Tab");
    await keel.waitFor(/> explain @README\.md and @docs\/\s/, "the folder", () => keel.bottom(8));
    keel.type("gu\t");
    await keel.waitFor(/> explain @README\.md and @docs\/guide\.md /, "the path inside the folder", () =>
      keel.bottom(8),
    );
    keel.send("Enter");
    const answered = await keel.waitFor(/Answered: explain @README\.md/, "the answer");
    expect(answered).toMatch(/Attached @README\.md \(2 lines\)/);
    expect(answered).toMatch(/Attached @docs\/guide\.md \(1 line\)/);
    const request = sent(server.requests.at(-1)!);
    expect(request).toContain("Contents of @README.md");
    expect(request).toContain("The readme says hello.");
  });

  it("/status, /mcp, and /model checked against the provider", async () => {
    await keel.prompt("/status");
    const status = await keel.waitFor(/MCP servers: files \(connected/, "/status");
    expect(status).toMatch(/Keel \d+\.\d+\.\d+/);
    expect(status).toMatch(/Model: claude-test \(Anthropic Messages API at http:\/\/127\.0\.0\.1:\d+\)/);
    expect(status).toMatch(/Permission mode: default/);
    expect(status).toContain(`Working folder: ${project}`);
    expect(status).toMatch(/Project: .* \(trusted/);
    expect(status).toMatch(/broken \(failed/);

    await keel.prompt("/mcp");
    const mcp = await keel.waitFor(/mcp__files__read_text_file/, "/mcp");
    // Ink wraps long lines itself: a server's line may span several.
    expect(mcp).toMatch(/files {2}stdio [^[]*server-filesystem[^[]*\[connected, \d+ tools\]/);
    expect(mcp).toMatch(/broken {2}stdio [^[]*\[failed: could not start/);
    expect(mcp).not.toMatch(/Unknown command/);

    await keel.prompt("/model gpt-4.1");
    const refused = await keel.waitFor(/gpt-4\.1 is an OpenAI model/, "the refusal");
    expect(refused.replace(/\s+/g, " ")).toMatch(
      /this session talks to the Anthropic API, so it stays on claude-test\. \/model takes a model of the same provider; for gpt-4\.1, start keel with --model gpt-4\.1 --provider openai\./,
    );
    expect(keel.bottom(1)).toMatch(/^claude-test · /);
    await keel.prompt("/model haiku");
    await keel.waitFor(/Model: claude-haiku-4-5 \(haiku\)/, "the alias");
    await keel.waitFor(/^claude-haiku-4-5 · /, "the status line", () => keel.bottom(1));
    await keel.prompt("/model claude-test");
    await keel.waitFor(/^claude-test · /, "back", () => keel.bottom(1));
  });

  it("/init: the model studies the repository and writes CLAUDE.md (its Write asks)", async () => {
    await keel.prompt("/init");
    await keel.waitFor(/Do you want to proceed\?/, "the Write of CLAUDE.md", () => keel.bottom(30));
    expect(promptOf(server.requests.at(-1)!)).toMatch(
      /^Look through this repository and write a CLAUDE\.md file/,
    );
    keel.send("1");
    await keel.waitFor(/Tool finished\./, "the answer after the write");
    expect(readFileSync(join(project, "CLAUDE.md"), "utf8")).toBe("# CLAUDE.md\n\nRun: npm test\n");
    expect(keel.screen()).toMatch(/> \/init/);
  });

  it("Esc: 'Refused' follows the refused call's line; the result bracket has a space after it", async () => {
    await keel.prompt("write refused");
    await keel.waitFor(/Do you want to proceed\?/, "the Write dialog", () => keel.bottom(30));
    keel.send("Escape");
    const screen = await keel.waitFor(/Refused\. Tell the model what to do instead\./, "the refusal");
    const tail = screen.slice(screen.lastIndexOf("> write refused"));
    expect(tail.indexOf("● Write(")).toBeGreaterThan(-1);
    expect(tail.indexOf("● Write(")).toBeLessThan(tail.indexOf("Refused. Tell the model"));
    expect(tail).toMatch(/⎿ \S/);
    expect(screen).not.toMatch(/⎿\S/);
  });

  it("no stale border is left when the terminal gets narrower", async () => {
    await keel.waitFor(/^(?!working…|starting…)/, "the agent to be idle", () => keel.bottom(1));
    const visible = () => keel.tmux("capture-pane", "-p", "-t", "keel");
    const topBorders = (screen: string) => screen.split("\n").filter((line) => line.includes("╭")).length;
    expect(topBorders(visible())).toBe(1);
    try {
      keel.tmux("resize-window", "-t", "keel", "-x", "70");
      await keel.waitFor(/^╰─{60,68}╯$/m, "the prompt box at the new width", visible);
      // Ink draws the resized frame in steps: look again once it has settled.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const after = visible();
      expect(topBorders(after)).toBe(1);
      expect(after.split("\n").every((line) => [...line].length <= 70)).toBe(true);
      // The conversation was drawn again at the new width: the earlier answers are still there.
      expect(keel.screen()).toMatch(/Answered: what did I run/);
    } finally {
      keel.tmux("resize-window", "-t", "keel", "-x", "110");
    }
  });

  it("/resume: picks an earlier session and continues it", async () => {
    await keel.prompt("/resume");
    const picker = await keel.waitFor(/Resume a session/, "the picker", () => keel.bottom(20));
    expect(picker).toMatch(/❯ 1\. the earlier session's question/);
    expect(picker).toMatch(/\d+ prompts? · [0-9a-f-]{36}/);
    keel.send("Enter");
    await keel.waitFor(/Resumed session [0-9a-f-]{36} \(\d+ messages\)/, "the resumed session");
    await keel.prompt("and now?");
    await keel.waitFor(/Answered: and now\?/, "the answer in the resumed session");
    const request = sent(server.requests.at(-1)!);
    expect(request).toContain("the earlier session's question");
    expect(request).not.toContain("what did I run");
    await keel.prompt("/exit");
    await keel.waitFor(/EXITED 0/, "the program to exit");
  });
});

describe.skipIf(!hasTmux)("keel tool's approval on a terminal (tmux)", () => {
  const keel = new TmuxKeel("tool-approval");
  let root = "";
  afterAll(() => {
    keel.kill();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it("offers Yes / No with no model to tell and no mode key", async () => {
    root = realpathSync(mkdtempSync(join(tmpdir(), "keel-tool-approval-")));
    const project = join(root, "project");
    mkdirSync(project);
    mkdirSync(join(root, "home"));
    const quote = (value: string) => `'${value.replace(/'/g, "'\\''")}'`;
    const env = `PATH=${quote(process.env.PATH ?? "")} HOME=${quote(join(root, "home"))} KEEL_HOME=${quote(join(root, "home"))} KEEL_DECISION_SERVER=off TERM=xterm-256color`;
    const command = `cd ${quote(project)} && env -i ${env} ${quote(process.execPath)} ${quote(join(REPO, "src", "cli", "entry.ts"))} tool Bash '{"command":"touch x"}'; echo "EXITED $?"; sleep 60`;
    keel.tmux("new-session", "-d", "-s", "keel", "-x", "120", "-y", "30", command);
    const question = await keel.waitFor(/Allow\? \[1\/2\/3\]/, "the question");
    expect(question).toMatch(/Approval needed: Bash needs approval: touch changes files\n/);
    expect(question).toMatch(/ {2}3 {2}No \(a reason may follow: n use the test script instead\)/);
    expect(question).not.toMatch(/model|Shift\+Tab|no rule matched/);
    keel.type("n");
    keel.send("Enter");
    await keel.waitFor(/EXITED 3/, "the refusal's exit code");
    expect(existsSync(join(project, "x"))).toBe(false);
  });
});

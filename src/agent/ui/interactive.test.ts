// The real `keel` program in a pseudo-terminal (tmux), against a scripted Anthropic server: prompts,
// approval dialogs that show what they approve (a Write's content, an Edit's diff, the whole command)
// and narrow "don't ask again" choices, streaming, Ctrl-C, /clear forgetting reads, /cost, /exit.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { trustFolder } from "../../settings/trust.ts";
import { tempFolderForTest } from "../../tool/testing/tempFolder.ts";
import { startServer } from "../testing/harness.ts";
import { type RecordedRequest, type ScriptTurn, text, toolUse } from "../testing/script.ts";
import type { ScriptedServer } from "../testing/server.ts";
import { hasTmux, isToolResultTurn, lastPrompt, TmuxKeel } from "./testing/tmuxSession.ts";

describe.skipIf(!hasTmux)("keel interactive (in tmux)", () => {
  let server: ScriptedServer;
  let project: string;
  let home: string;
  let notifications: string;
  const keel = new TmuxKeel("ui");
  let toolTurns = 0;

  /** What the model does for each prompt; after a tool result it says "Tool done N." */
  function reply(request: RecordedRequest): ScriptTurn {
    if (isToolResultTurn(request)) return { blocks: [text(`Tool done ${++toolTurns}.`)] };
    const prompt = lastPrompt(request);
    const file = (name: string) => join(project, name);
    switch (prompt) {
      case "write hello.txt":
        return {
          blocks: [
            text("I will write the file."),
            toolUse("Write", { file_path: file("hello.txt"), content: "hi\n" }),
          ],
        };
      case "keep talking":
        return { blocks: [text("Thinking out loud"), text("this never arrives")], hangAfterBlocks: 1 };
      case "read greet":
        return { blocks: [toolUse("Read", { file_path: file("greet.ts") })] };
      case "edit greet":
        return {
          blocks: [
            toolUse("Edit", { file_path: file("greet.ts"), old_string: "'hello'", new_string: "'goodbye'" }),
          ],
        };
      case "write more":
        return { blocks: [toolUse("Write", { file_path: file("more.txt"), content: "more\n" })] };
      case "run touch":
        return { blocks: [toolUse("Bash", { command: "touch made.txt", description: "make a file" })] };
      case "write refused":
        return { blocks: [toolUse("Write", { file_path: file("refused.txt"), content: "no\n" })] };
      case "read notes":
        return { blocks: [toolUse("Read", { file_path: file("notes.txt") })] };
      default:
        return { blocks: [text(`(no script for ${JSON.stringify(prompt)})`)] };
    }
  }

  beforeAll(async () => {
    const root = tempFolderForTest("keel-ui-");
    project = join(root, "project");
    home = join(root, "home");
    mkdirSync(project);
    mkdirSync(home);
    writeFileSync(join(project, "greet.ts"), "export const greeting = 'hello';\n");
    writeFileSync(join(project, "notes.txt"), "the secret is 42\n");
    notifications = join(root, "notifications.jsonl");
    mkdirSync(join(project, ".claude"));
    const record = `cat >> '${notifications}'; echo >> '${notifications}'`;
    writeFileSync(
      join(project, ".claude", "settings.json"),
      JSON.stringify({ hooks: { Notification: [{ hooks: [{ type: "command", command: record }] }] } }),
    );
    trustFolder(project, { KEEL_HOME: home });
    server = await startServer("anthropic", reply);
    keel.start({ project, home, server });
    await keel.waitFor(/\/help/, "the status line");
  });

  afterAll(async () => {
    keel.kill();
    await server?.close();
  });

  it("a Write asks first and shows the content before the answer; streams; stops on Ctrl-C", async () => {
    await keel.prompt("write hello.txt");
    const dialog = await keel.waitFor(/Do you want to proceed\?/, "the permission dialog");
    expect(dialog).toMatch(/Write\(.*hello\.txt\)/);
    expect(dialog).toMatch(/Create .*hello\.txt \(1 line\)/);
    expect(dialog).toMatch(/\+hi/);
    expect(dialog).toMatch(/❯ 1\. Yes/);
    expect(dialog).toMatch(/2\. Yes, allow all edits during this session \(shift\+tab\)/);
    expect(dialog).toMatch(/3\. No, and tell the model what to do instead \(esc\)/);
    expect(existsSync(join(project, "hello.txt"))).toBe(false);
    // The dialog fired the Notification hooks, with the fields Claude Code sends.
    const written = () => existsSync(notifications) && readFileSync(notifications, "utf8").includes("}\n");
    for (let i = 0; i < 300 && !written(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
    const notice = JSON.parse(readFileSync(notifications, "utf8").trim().split("\n")[0]!) as Record<
      string,
      string
    >;
    expect(Object.keys(notice).sort()).toEqual(
      [
        "cwd",
        "hook_event_name",
        "message",
        "notification_type",
        "session_id",
        "title",
        "transcript_path",
      ].sort(),
    );
    expect(notice).toMatchObject({
      hook_event_name: "Notification",
      notification_type: "permission_prompt",
      message: "Keel needs your permission to use Write",
      title: "Permission needed",
      cwd: project,
    });
    expect(readFileSync(notice.transcript_path!, "utf8")).toContain("write hello.txt");

    keel.send("1");
    const done = await keel.waitFor(/Tool done 1\./, "the answer after the tool");
    expect(readFileSync(join(project, "hello.txt"), "utf8")).toBe("hi\n");
    expect(done).toMatch(/● Write\(.*hello\.txt\)/);

    await keel.prompt("keep talking");
    await keel.waitFor(/Thinking out loud/, "streamed text");
    keel.send("C-c");
    await keel.waitFor(/Interrupted\./, "the interruption notice");
    const deadline = Date.now() + 10_000;
    while (server.clientClosed.length === 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(server.clientClosed).toHaveLength(1);
  });

  it("an Edit shows its diff; Shift+Tab allows all edits for the session, and the next Write runs", async () => {
    await keel.prompt("read greet");
    await keel.waitFor(/Tool done 2\./, "the read");
    await keel.prompt("edit greet");
    const dialog = await keel.waitFor(/Do you want to proceed\?/, "the Edit dialog", () => keel.bottom(30));
    expect(dialog).toMatch(/-export const greeting = 'hello';/);
    expect(dialog).toMatch(/\+export const greeting = 'goodbye';/);
    expect(dialog).not.toMatch(/Edit\(\/\*\*\)/);
    expect(readFileSync(join(project, "greet.ts"), "utf8")).toContain("'hello'");

    keel.send("BTab");
    const after = await keel.waitFor(/Tool done 3\./, "the edit to run");
    expect(after).toMatch(/Permission mode: acceptEdits for this session/);
    expect(readFileSync(join(project, "greet.ts"), "utf8")).toContain("'goodbye'");
    expect(keel.bottom(1)).toMatch(/acceptEdits mode/);

    await keel.prompt("write more");
    await keel.waitFor(/Tool done 4\./, "the write, unasked");
    expect(readFileSync(join(project, "more.txt"), "utf8")).toBe("more\n");
    expect(existsSync(join(project, ".keel", "settings.local.json"))).toBe(false);
    keel.send("BTab", "BTab");
    await keel.waitFor(/default mode/, "back to default mode", () => keel.bottom(1));
  });

  it("a command shows itself; 'don't ask again' saves its prefix in the project's local settings", async () => {
    const settings = join(project, ".keel", "settings.local.json");
    await keel.prompt("run touch");
    const dialog = await keel.waitFor(/Do you want to proceed\?/, "the Bash dialog", () => keel.bottom(30));
    expect(dialog).toMatch(/\$ touch made\.txt/);
    expect(dialog).toContain(`2. Yes, and don't ask again for \`touch\` commands in ${project}`);
    expect(dialog).toMatch(/Adds the allow rule Bash\(touch:\*\) to/);

    keel.send("Down", "Enter");
    const saved = await keel.waitFor(/Tool done 5\./, "the command to run");
    expect(saved.replace(/\s+/g, " ")).toContain(`Saved: allow Bash(touch:*) in ${settings}`);
    expect(existsSync(join(project, "made.txt"))).toBe(true);
    expect(JSON.parse(readFileSync(settings, "utf8"))).toEqual({ permissions: { allow: ["Bash(touch:*)"] } });

    await keel.prompt("run touch");
    const again = await keel.waitFor(/Tool done 6\./, "the same command, unasked", () => keel.bottom(30));
    expect(again).not.toMatch(/Do you want to proceed/);
  });

  it("after /clear, Read gives the model the file again; No stops the turn; /cost; /exit", async () => {
    await keel.prompt("read notes");
    await keel.waitFor(/Tool done 7\./, "the first read");
    await keel.prompt("/clear");
    await keel.waitFor(/Conversation cleared\./, "/clear");
    await keel.prompt("read notes");
    await keel.waitFor(/Tool done 8\./, "the read after /clear");
    const messages = JSON.stringify(server.requests.at(-1)!.body.messages);
    expect(messages).toContain("the secret is 42");
    expect(messages).not.toContain("File unchanged since last read");

    // No (Esc): the call is refused and the turn stops, so the person can say what to do instead.
    await keel.prompt("write refused");
    await keel.waitFor(/Do you want to proceed\?/, "the Write dialog", () => keel.bottom(30));
    keel.send("Escape");
    const refused = await keel.waitFor(/Refused\. Tell the model what to do instead\./, "the refusal");
    expect(refused).toMatch(/Interrupted\./);
    expect(existsSync(join(project, "refused.txt"))).toBe(false);

    await keel.prompt("/cost");
    await keel.waitFor(/Tokens: [\d.]+k? in, [\d.]+k? out/, "/cost");
    await keel.prompt("/exit");
    await keel.waitFor(/EXITED 0/, "the program to exit");
  });
});

describe.skipIf(!hasTmux)("keel interactive in a small terminal (tmux, 24 rows)", () => {
  let server: ScriptedServer;
  let project: string;
  const keel = new TmuxKeel("ui-small");
  const content = Array.from({ length: 40 }, (_, i) => `line ${i}`).join("\n");

  beforeAll(async () => {
    const root = tempFolderForTest("keel-ui-small-");
    project = join(root, "project");
    const home = join(root, "home");
    mkdirSync(project);
    mkdirSync(home);
    server = await startServer("anthropic", (request) =>
      isToolResultTurn(request)
        ? { blocks: [text("Written.")] }
        : { blocks: [toolUse("Write", { file_path: join(project, "long.txt"), content })] },
    );
    keel.start({ project, home, server, size: { columns: 100, rows: 24 } });
    await keel.waitFor(/\/help/, "the status line");
  });

  afterAll(async () => {
    keel.kill();
    await server?.close();
  });

  it("the whole approval fits the screen: what is approved, the file's head, the choices, the prompt line", async () => {
    await keel.prompt("write the long file");
    const visible = () => keel.tmux("capture-pane", "-p", "-t", "keel");
    const dialog = await keel.waitFor(/Do you want to proceed\?[\s\S]*default mode/, "the dialog", visible);
    expect(dialog).toMatch(/│ Write\(.*long\.txt\)/);
    expect(dialog).toMatch(/Create .*long\.txt \(40 lines\)/);
    expect(dialog).toMatch(/\+line 0/);
    expect(dialog).toMatch(/… \d+ more lines/);
    expect(dialog).toMatch(/3\. No, and tell the model what to do instead/);
    expect(dialog).toMatch(/│ > /);

    // Moving the choice redraws the dialog in place: no copy of it is pushed into the scrollback.
    keel.send("Down");
    await keel.waitFor(/❯ 2\. Yes, allow all edits/, "the second choice", visible);
    keel.send("Up");
    await keel.waitFor(/❯ 1\. Yes/, "the first choice again", visible);
    expect(keel.screen().match(/Create .*long\.txt \(40 lines\)/g)).toHaveLength(1);

    keel.send("Enter");
    await keel.waitFor(/Written\./, "the answer after the write");
    expect(readFileSync(join(project, "long.txt"), "utf8")).toBe(content);
  });
});

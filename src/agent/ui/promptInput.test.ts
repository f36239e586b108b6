// The prompt line as a person types in it, in the real `keel` under tmux against a scripted model that
// echoes each prompt back: fast backspaces, cursor and word keys, multi-line input (Shift+Enter as the
// kitty keyboard protocol reports it, \ then Enter, Alt+Enter, Ctrl+J), bracketed paste,
// history across sessions, Shift+Tab mode cycling, Ctrl-C and Ctrl-D.
import { mkdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempFolderForTest } from "../../tool/testing/tempFolder.ts";
import { startServer } from "../testing/harness.ts";
import { text } from "../testing/script.ts";
import type { ScriptedServer } from "../testing/server.ts";
import { hasTmux, lastPrompt, TmuxKeel } from "./testing/tmuxSession.ts";

describe.skipIf(!hasTmux)("the prompt line (keel in tmux)", () => {
  let server: ScriptedServer;
  let project: string;
  let home: string;
  const keel = new TmuxKeel("prompt");
  let sent = 0;

  beforeAll(async () => {
    const root = tempFolderForTest("keel-prompt-ui-");
    project = join(root, "project");
    home = join(root, "home");
    mkdirSync(project);
    mkdirSync(home);
    // Every prompt is answered with itself, JSON-quoted, so the screen shows exactly what was sent.
    server = await startServer("anthropic", (request) => ({
      blocks: [text(`echo ${++sent}: ${JSON.stringify(lastPrompt(request))}`)],
    }));
    keel.start({ project, home, server });
    await keel.waitFor(/\/help/, "the status line");
  });

  afterAll(async () => {
    keel.kill();
    await server?.close();
  });

  /** Sends the prompt line and returns what the model got. */
  async function submit(): Promise<string> {
    const before = server.requests.length;
    keel.send("Enter");
    await keel.waitFor(new RegExp(`echo ${before + 1}: `), `answer ${before + 1}`);
    await keel.waitFor(/^(?!working…)/, "the end of the turn", () => keel.bottom(1));
    return lastPrompt(server.requests.at(-1)!);
  }

  it("two quick backspaces delete two characters (no hidden DEL is sent)", async () => {
    keel.send("hello", "BSpace", "BSpace");
    await keel.waitFor(/> hel /, "hel on the prompt line", () => keel.bottom());
    expect(await submit()).toBe("hel");
  });

  it("moves by character, word and line end, and deletes with the shell keys", async () => {
    keel.type("world");
    keel.send("Home");
    keel.type("hello ");
    keel.send("End");
    keel.type("!");
    keel.send("Left", "Left");
    keel.type("s");
    expect(await submit()).toBe("hello worlsd!");

    keel.type("one two three");
    keel.send("C-w"); // "one two "
    keel.type("four five");
    keel.send("M-b", "M-b"); // before "four"
    keel.send("C-k"); // "one two "
    keel.send("C-a", "M-f"); // after "one"
    keel.type(",");
    expect(await submit()).toBe("one, two");

    keel.type("drop all of this");
    keel.send("C-u");
    keel.type("kept");
    keel.send("C-a", "C-d", "C-e");
    keel.type("!");
    expect(await submit()).toBe("ept!");
  });

  it("keeps several lines: \\ then Enter, Alt+Enter and Ctrl+J start a new line", async () => {
    keel.type("first line\\");
    keel.send("Enter");
    keel.type("second");
    keel.send("M-Enter");
    keel.type("third");
    keel.send("C-j");
    keel.type("fourth");
    await keel.waitFor(/ {2}fourth/, "the fourth line in the prompt box", () => keel.bottom(10));
    expect(await submit()).toBe("first line\nsecond\nthird\nfourth");
  });

  it("Shift+Enter as a kitty-protocol terminal sends it (ESC [13;2u) starts a new line", async () => {
    keel.type("upper");
    keel.type("\u001b[13;2u");
    keel.type("lower");
    await keel.waitFor(/ {2}lower/, "the second line in the prompt box", () => keel.bottom(10));
    expect(await submit()).toBe("upper\nlower");
  });

  it("a multi-line paste stays one prompt until Enter", async () => {
    keel.type("look: ");
    keel.paste("line a\nline b\nline c");
    await keel.waitFor(/ {2}line c/, "the pasted lines", () => keel.bottom(10));
    expect(server.requests.length).toBe(sent);
    expect(await submit()).toBe("look: line a\nline b\nline c");
  });

  it("Shift+Tab cycles the permission mode, shown in the status line", async () => {
    const status = () => keel.bottom(1);
    expect(status()).toMatch(/default mode/);
    keel.send("BTab");
    await keel.waitFor(/acceptEdits mode/, "acceptEdits", status);
    keel.send("BTab");
    await keel.waitFor(/plan mode/, "plan", status);
    keel.send("BTab");
    await keel.waitFor(/default mode/, "default again", status);
  });

  it("Up and Down walk the history; Ctrl-C clears the line; it is kept for the next session", async () => {
    keel.type("a draft");
    keel.send("Up");
    await keel.waitFor(/> look: line a/, "the last prompt", () => keel.bottom(10));
    keel.send("Up");
    await keel.waitFor(/> upper/, "the one before", () => keel.bottom(10));
    keel.send("Down", "Down", "Down", "Down", "Down", "Down");
    await keel.waitFor(/> a draft/, "the draft back", () => keel.bottom(10));
    keel.send("C-c");
    await keel.waitFor(/> \s*│/, "an empty prompt line", () => keel.bottom(10));
    keel.send("C-p");
    expect(await submit()).toBe("look: line a\nline b\nline c");

    const file = join(home, ".keel", "history.jsonl");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const entries = readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(entries.map((entry) => entry.display)).toContain("hel");
    expect(entries.every((entry) => entry.project === project)).toBe(true);

    keel.send("C-d");
    await keel.waitFor(/EXITED 0/, "Ctrl-D to leave");
    keel.start({ project, home, server });
    await keel.waitFor(/\/help/, "the second session");
    keel.send("Up");
    await keel.waitFor(/> look: line a/, "the previous session's last prompt", () => keel.bottom(10));
  });
});

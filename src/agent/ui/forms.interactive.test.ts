// The real `keel` in a pseudo-terminal (tmux) using a real MCP server whose tool asks the person to fill
// in a form (elicitation): the form shows one field at a time, answers are typed on the prompt line
// (a bad one is asked again, Enter alone takes the default), Esc declines, Ctrl-C cancels and stops,
// and a prompt typed before the form came is still there after it.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempFolderForTest } from "../../tool/testing/tempFolder.ts";
import { startServer } from "../testing/harness.ts";
import { type RecordedRequest, type ScriptTurn, text, toolUse } from "../testing/script.ts";
import type { ScriptedServer } from "../testing/server.ts";
import { hasTmux, isToolResultTurn, lastPrompt, TmuxKeel } from "./testing/tmuxSession.ts";

const ASKS = join(import.meta.dirname, "..", "..", "mcp", "testing", "servers", "asks.mjs");

/** The text of the tool result the model got last. */
function toolResultText(request: RecordedRequest): string {
  const last = (request.body.messages as Array<{ content: unknown }>).at(-1);
  const blocks = last?.content as Array<{ type: string; content?: unknown }>;
  const result = blocks.find((block) => block.type === "tool_result")?.content;
  if (typeof result === "string") return result;
  return ((result ?? []) as Array<{ text?: string }>).map((block) => block.text ?? "").join("");
}

describe.skipIf(!hasTmux)("MCP forms in the terminal UI (keel in tmux)", () => {
  let server: ScriptedServer;
  const keel = new TmuxKeel("forms");
  const results: string[] = [];
  /** While this file exists, a PreToolUse hook holds the form's tool call back. */
  let hold = "";

  function reply(request: RecordedRequest): ScriptTurn {
    // After an interrupted call, the next prompt travels with that call's result: the prompt decides.
    const prompt = lastPrompt(request);
    if (prompt === "sign up") return { blocks: [toolUse("mcp__asks__signup", {})] };
    if (isToolResultTurn(request)) {
      results.push(toolResultText(request));
      return { blocks: [text(`Server said ${results.length}.`)] };
    }
    return { blocks: [text("(no script)")] };
  }

  beforeAll(async () => {
    const root = tempFolderForTest("keel-ui-forms-");
    const project = join(root, "project");
    const home = join(root, "home");
    hold = join(root, "hold");
    mkdirSync(project);
    mkdirSync(join(home, ".keel"), { recursive: true });
    writeFileSync(
      join(home, ".keel", "settings.json"),
      JSON.stringify({
        mcpServers: { asks: { command: process.execPath, args: [ASKS] } },
        permissions: { allow: ["mcp__asks"] },
        hooks: {
          PreToolUse: [
            {
              matcher: "mcp__asks__signup",
              hooks: [{ type: "command", command: `while [ -f '${hold}' ]; do sleep 0.05; done` }],
            },
          ],
        },
      }),
    );
    server = await startServer("anthropic", reply);
    keel.start({ project, home, server });
    await keel.waitFor(/\/help/, "the status line");
  });

  afterAll(async () => {
    keel.kill();
    await server?.close();
  });

  it("is filled in field by field on the prompt line, and its answer reaches the server", async () => {
    await keel.prompt("sign up");
    const first = await keel.waitFor(/│ Name\s+│/, "the form's first field", () => keel.bottom(20));
    expect(first).toMatch(/MCP server "asks" asks \(field 1 of 3\):/);
    expect(first).toMatch(/Who is signing up\?/);
    expect(first).toMatch(/Esc declines the form/);
    expect(keel.bottom(1)).toMatch(/answering a form/);

    keel.type("Grxce");
    keel.send("Left", "Left", "BSpace");
    keel.type("a");
    await keel.waitFor(/> Grace/, "the edited answer", () => keel.bottom(5));
    keel.send("Enter");
    await keel.waitFor(/Seats \(optional\)/, "the second field", () => keel.bottom(20));
    expect(keel.bottom(20)).toMatch(/nothing for 3/);

    keel.type("many");
    keel.send("Enter");
    await keel.waitFor(/That is not a integer value\./, "the problem with the answer", () => keel.bottom(20));
    keel.send("Enter");
    const plan = await keel.waitFor(/Plan \(optional\)/, "the third field", () => keel.bottom(20));
    expect(plan).toMatch(/1 {2}free/);
    expect(plan).toMatch(/2 {2}pro/);
    keel.type("2");
    keel.send("Enter");

    await keel.waitFor(/Server said 1\./, "the model's answer after the tool");
    expect(JSON.parse(results[0] ?? "")).toEqual({
      action: "accept",
      content: { name: "Grace", seats: 3, plan: "pro" },
    });
    expect(keel.bottom(20)).not.toMatch(/MCP server "asks" asks/);
  });

  it("Esc declines the form", async () => {
    await keel.prompt("sign up");
    await keel.waitFor(/│ Name\s+│/, "the form", () => keel.bottom(20));
    keel.type("Ada");
    keel.send("Escape");
    await keel.waitFor(/Server said 2\./, "the model's answer after the tool");
    expect(JSON.parse(results[1] ?? "")).toEqual({ action: "decline" });
  });

  it("Ctrl-C cancels the form and stops the agent; the prompt line is the person's again", async () => {
    await keel.prompt("sign up");
    await keel.waitFor(/│ Name\s+│/, "the form", () => keel.bottom(20));
    keel.send("C-c");
    await keel.waitFor(/Interrupted\./, "the interruption notice");
    await keel.waitFor(/^(?!working…|answering)/, "the agent to be idle", () => keel.bottom(1));
    expect(keel.bottom(20)).not.toMatch(/MCP server "asks" asks/);
    keel.type("after");
    await keel.waitFor(/> after/, "the prompt line taking keys", () => keel.bottom(5));
    keel.send("C-c");
    await keel.waitFor(/^(?![\s\S]*> after)/, "the prompt line cleared", () => keel.bottom(5));
  });

  it("a prompt typed while the agent works waits behind the form, as it was", async () => {
    writeFileSync(hold, "");
    await keel.prompt("sign up");
    await keel.waitFor(/● asks - signup/, "the held tool call");
    keel.type("draft for later");
    await keel.waitFor(/> draft for later/, "the draft on the prompt line", () => keel.bottom(5));
    rmSync(hold);
    await keel.waitFor(/│ Name\s+│/, "the form", () => keel.bottom(20));
    expect(keel.bottom(5)).not.toMatch(/draft for later/);
    keel.type("Lin");
    keel.send("Enter", "Enter", "Enter");
    await keel.waitFor(/Server said 3\./, "the model's answer after the tool");
    expect(JSON.parse(results[2] ?? "")).toEqual({ action: "accept", content: { name: "Lin", seats: 3 } });
    await keel.waitFor(/> draft for later/, "the draft back on the prompt line", () => keel.bottom(5));
  });
});

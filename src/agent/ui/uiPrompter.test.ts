// The UI's prompter and slash commands, without a terminal: answers, "always" rules, cancellation.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import type { ApprovalRequest, ElicitationRequest } from "../../pipeline/services.ts";
import { createToolUseContext } from "../../tool/createContext.ts";
import { buildTool, type Tool } from "../../tool/Tool.ts";
import { tempFolderForTest } from "../../tool/testing/tempFolder.ts";
import { parseSlash } from "./slashCommands.ts";
import { UiPrompter } from "./uiPrompter.ts";

const tool = buildTool({
  name: "Touch",
  inputSchema: z.object({}),
  maxResultSizeChars: 10,
  description: () => "",
  prompt: () => "",
  call: async () => ({ data: "" }),
}) as Tool;

function request(signal = new AbortController().signal): ApprovalRequest {
  const context = createToolUseContext({ tools: [tool], cwd: tempFolderForTest("keel-prompter-") });
  return {
    tool,
    input: {},
    toolUseId: "t1",
    message: "Touch needs approval",
    decision: {
      behavior: "ask",
      message: "Touch needs approval",
      decisionReason: { type: "default", reason: "no rule" },
    },
    suggestions: [],
    context,
    signal,
  };
}

/** The question appears once its preview is ready (a microtask or a file read away). */
async function until(condition: () => boolean): Promise<void> {
  // A deadline only so that a broken prompter fails the test; a busy machine may take a while.
  const deadline = Date.now() + 10_000;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  if (!condition()) throw new Error("the question never appeared");
}

describe("UiPrompter", () => {
  it("answers yes and no for the question on screen, one at a time, in call order", async () => {
    const prompter = new UiPrompter({ persist: () => false });
    const first = prompter.ask(request());
    const second = prompter.ask(request());
    await until(() => prompter.current !== undefined);
    expect(prompter.current?.request.toolUseId).toBe("t1");
    expect(prompter.answer("1")).toBe(true);
    await until(() => prompter.current !== undefined);
    expect(prompter.answer("n")).toBe(true);
    expect(await first).toEqual({ behavior: "allow", choice: "once" });
    expect(await second).toEqual({ behavior: "deny" });
    expect(prompter.current).toBeUndefined();
    expect(prompter.answer("y")).toBe(false);
  });

  it("shows the input as the preview, and an unknown key answers nothing", async () => {
    const prompter = new UiPrompter({ persist: () => false });
    const answer = prompter.ask(request());
    await until(() => prompter.current !== undefined);
    expect(prompter.current?.prompt.title).toBe("Touch({})");
    expect(prompter.current?.prompt.preview).toEqual({ kind: "text", text: "{}" });
    expect(prompter.answer("x")).toBe(false);
    expect(prompter.current).toBeDefined();
    prompter.answer("3");
    expect(await answer).toEqual({ behavior: "deny" });
  });

  it("don't ask again: adds the rule to the session, and saves it where it says when the folder is trusted", async () => {
    for (const persist of [false, true]) {
      const prompter = new UiPrompter({ persist: () => persist });
      const asked = request();
      const answer = prompter.ask(asked);
      await until(() => prompter.current !== undefined);
      const root = asked.context.getAppState().toolPermissionContext.projectRoot;
      const file = join(root, ".keel", "settings.local.json");
      const always = prompter.current?.prompt.options[1];
      expect(always?.label).toBe(
        persist
          ? `Yes, and don't ask again for Touch in ${root}`
          : "Yes, and don't ask again for Touch during this session",
      );
      expect(always?.detail).toBe(
        persist
          ? `Adds the allow rule Touch to ${file}.`
          : "Adds the allow rule Touch for this session only (this folder is not trusted, so nothing is saved).",
      );
      prompter.answer("a");
      expect(await answer).toMatchObject({
        behavior: "allow",
        choice: "always",
        rule: { rule: "Touch", destination: persist ? "local" : "session" },
      });
      const rules = asked.context.getAppState().toolPermissionContext.alwaysAllowRules;
      expect(rules[persist ? "local" : "session"]).toEqual(["Touch"]);
      expect(prompter.notes).toEqual([
        persist ? `Saved: allow Touch in ${file}` : "Allowed for this session: Touch",
      ]);
      if (persist)
        expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ permissions: { allow: ["Touch"] } });
      else expect(existsSync(file)).toBe(false);
    }
  });

  it("a cancelled call or Ctrl-C answers no, never yes", async () => {
    const prompter = new UiPrompter({ persist: () => false });
    const controller = new AbortController();
    const cancelled = prompter.ask(request(controller.signal));
    const other = prompter.ask(request());
    await until(() => prompter.current !== undefined);
    controller.abort();
    expect(await cancelled).toEqual({ behavior: "deny", reason: "the call was cancelled" });
    await until(() => prompter.current !== undefined);
    prompter.cancelAll();
    expect(await other).toEqual({ behavior: "deny", reason: "interrupted by the user" });
  });
});

describe("parseSlash", () => {
  it.each([
    ["/help", "help", ""],
    ["/compact keep the API notes", "compact", "keep the API notes"],
    ["/quit", "exit", ""],
    ["/permissions mode auto", "permissions", "mode auto"],
  ])("%j", (line, command, args) => {
    const parsed = parseSlash(line);
    expect(parsed?.command?.name).toBe(command);
    expect(parsed?.args).toBe(args);
  });

  it("leaves prompts and unknown commands alone", () => {
    expect(parseSlash("fix the bug")).toBeUndefined();
    expect(parseSlash("/nope")?.command).toBeUndefined();
  });
});

describe("UiPrompter forms (MCP elicitation)", () => {
  const form = (signal = new AbortController().signal): ElicitationRequest => ({
    serverName: "tickets",
    message: "Which project?",
    requestedSchema: {
      type: "object",
      properties: {
        project: { type: "string", title: "Project", enum: ["web", "api"] },
        urgent: { type: "boolean", title: "Urgent", default: false },
        note: { type: "string", title: "Note" },
      },
      required: ["project"],
    },
    signal,
  });

  it("fills a form field by field from typed lines; empty takes the default or skips", async () => {
    const prompter = new UiPrompter({ persist: () => false });
    const answer = prompter.elicit(form());
    expect(prompter.currentForm?.form.current?.label).toBe("Project");
    prompter.answerField("3");
    expect(prompter.currentForm?.problem).toMatch(/number of a choice/);
    prompter.answerField("2");
    prompter.answerField("");
    prompter.answerField("");
    expect(await answer).toEqual({ action: "accept", content: { project: "api", urgent: false } });
    expect(prompter.currentForm).toBeUndefined();
  });

  it("declines on Esc, and cancels when the call is cancelled or on Ctrl-C", async () => {
    const prompter = new UiPrompter({ persist: () => false });
    const declined = prompter.elicit(form());
    prompter.declineForm();
    expect(await declined).toEqual({ action: "decline" });
    const abort = new AbortController();
    const aborted = prompter.elicit(form(abort.signal));
    abort.abort();
    expect(await aborted).toEqual({ action: "cancel" });
    const interrupted = prompter.elicit(form());
    prompter.cancelAll();
    expect(await interrupted).toEqual({ action: "cancel" });
  });

  it("shows an approval question before a waiting form", async () => {
    const prompter = new UiPrompter({ persist: () => false });
    const answer = prompter.elicit(form());
    expect(prompter.currentForm?.request.serverName).toBe("tickets");
    const approval = prompter.ask(request());
    await until(() => prompter.current !== undefined);
    expect(prompter.currentForm).toBeUndefined();
    expect(prompter.answer("1")).toBe(true);
    expect(await approval).toEqual({ behavior: "allow", choice: "once" });
    expect(prompter.currentForm?.request.serverName).toBe("tickets");
    prompter.declineForm();
    await answer;
  });
});

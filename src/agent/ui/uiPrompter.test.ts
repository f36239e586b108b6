// The UI's prompter and slash commands, without a terminal: answers, "always" rules, cancellation.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { ApprovalRequest, ElicitationRequest } from "../../pipeline/services.ts";
import { createToolUseContext } from "../../tool/createContext.ts";
import { buildTool, type Tool } from "../../tool/Tool.ts";
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
  const context = createToolUseContext({ tools: [tool], cwd: mkdtempSync(join(tmpdir(), "keel-prompter-")) });
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

describe("UiPrompter", () => {
  it("answers yes and no for the question on screen, one at a time", async () => {
    const prompter = new UiPrompter({ persist: () => false });
    const first = prompter.ask(request());
    const second = prompter.ask(request());
    expect(prompter.current?.request.toolUseId).toBe("t1");
    prompter.answer("yes");
    prompter.answer("no");
    expect(await first).toEqual({ behavior: "allow", choice: "once" });
    expect(await second).toEqual({ behavior: "deny" });
    expect(prompter.current).toBeUndefined();
  });

  it("always: adds the rule to the session, and saves it when the folder is trusted", async () => {
    for (const persist of [false, true]) {
      const prompter = new UiPrompter({ persist: () => persist });
      const asked = request();
      const answer = prompter.ask(asked);
      expect(prompter.current?.alwaysRule).toBe("Touch");
      prompter.answer("always");
      expect(await answer).toMatchObject({
        behavior: "allow",
        choice: "always",
        rule: { rule: "Touch", destination: persist ? "local" : "session" },
      });
      const rules = asked.context.getAppState().toolPermissionContext.alwaysAllowRules;
      expect(rules[persist ? "local" : "session"]).toEqual(["Touch"]);
      const root = asked.context.getAppState().toolPermissionContext.projectRoot;
      if (persist)
        expect(JSON.parse(readFileSync(join(root, ".keel", "settings.local.json"), "utf8"))).toEqual({
          permissions: { allow: ["Touch"] },
        });
    }
  });

  it("a cancelled call or Ctrl-C answers no, never yes", async () => {
    const prompter = new UiPrompter({ persist: () => false });
    const controller = new AbortController();
    const cancelled = prompter.ask(request(controller.signal));
    const other = prompter.ask(request());
    controller.abort();
    expect(await cancelled).toEqual({ behavior: "deny", reason: "the call was cancelled" });
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
    const approval = prompter.ask(request());
    expect(prompter.currentForm).toBeUndefined();
    prompter.answer("yes");
    await approval;
    expect(prompter.currentForm?.request.serverName).toBe("tickets");
    prompter.declineForm();
    await answer;
  });
});

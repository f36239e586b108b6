import { existsSync, readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { webFetchRuleMatcher } from "../permissions/matchers/webFetch.ts";
import type { HooksConfig } from "./config.ts";
import {
  runNotificationHooks,
  runPermissionRequestHooks,
  runPreCompactHooks,
  runSessionEndHooks,
  runSessionStartHooks,
  runStopHooks,
  runSubagentStopHooks,
  runUserPromptSubmitHooks,
} from "./events.ts";
import { type HookRunner, type HookSessionInfo, sessionFromContext } from "./runner.ts";
import {
  BASH_HOOK,
  createHookProject,
  type HookProject,
  PYTHON_HOOK,
  scenarioTool,
  toolHooks,
} from "./testing.ts";

const tool = scenarioTool();
const readTool = scenarioTool("Read");
let project: HookProject;
beforeEach(() => {
  project = createHookProject([tool, readTool]);
});
afterEach(() => project.cleanup());
const signal = new AbortController().signal;
const args = (input: Record<string, unknown>, t = tool) => ({
  tool: t,
  input,
  toolUseId: "tu-1",
  context: project.context,
  signal,
});

function isGone(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.split(") ")[1]?.startsWith("Z") ?? false;
  } catch {
    return true;
  }
}

async function waitUntil(check: () => boolean, seconds = 5): Promise<boolean> {
  for (let i = 0; i < seconds * 20; i++) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

describe("HookRunner: running", () => {
  it.each([
    ["bash", BASH_HOOK],
    ["python", PYTHON_HOOK],
  ])(
    "kills a %s hook that sleeps past its timeout, with its children, and the call goes on",
    async (_lang, command) => {
      // 3 s: the interpreter starts and its sleeper is running (pid written) well before, on a busy machine too.
      const runner = project.runner(toolHooks(command, { timeout: 3 }));
      const result = await runner.preToolUse(args({ text: "x", pre: "sleep" }));
      expect(result.decision).toBeUndefined();
      expect(result.outcomes[0]).toMatchObject({ outcome: "non_blocking_error" });
      expect(result.userMessages[0]).toMatch(/timed out after 3s and was killed; the call went on/);
      const pid = Number(readFileSync(join(project.dir, "sleeper.pid"), "utf8"));
      expect(await waitUntil(() => isGone(pid))).toBe(true);
    },
  );

  it("runs matching hooks in parallel: two hooks that each wait for the other both finish", async () => {
    const a = join(project.dir, "a");
    const b = join(project.dir, "b");
    const waitFor = (mine: string, other: string) =>
      `touch ${mine}; for i in $(seq 1 100); do [ -e ${other} ] && exit 0; sleep 0.05; done; echo "never saw ${other}" >&2; exit 1`;
    const config: HooksConfig = {
      PreToolUse: [
        { matcher: "Echo", hooks: [{ type: "command", command: waitFor(a, b) }] },
        { matcher: "Echo", hooks: [{ type: "command", command: waitFor(b, a) }] },
      ],
    };
    const result = await project.runner(config).preToolUse(args({ text: "x" }));
    expect(result.outcomes.map((o) => o.outcome)).toEqual(["success", "success"]);
  });

  it("runs identical commands once, even when configured twice", async () => {
    const counter = join(project.dir, "count");
    const command = `echo run >> ${counter}`;
    const config: HooksConfig = {
      PreToolUse: [
        { matcher: "*", hooks: [{ type: "command", command }] },
        {
          matcher: "Echo",
          hooks: [
            { type: "command", command },
            { type: "command", command: `${command} # other` },
          ],
        },
      ],
    };
    const result = await project.runner(config).preToolUse(args({ text: "x" }));
    expect(result.outcomes).toHaveLength(2);
    expect(readFileSync(counter, "utf8")).toBe("run\nrun\n");
  });

  it("aggregates deny > ask > allow across hooks, whatever their order", async () => {
    const say = (decision: string) => ({
      type: "command" as const,
      command: `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"${decision}","permissionDecisionReason":"${decision} hook"}}'`,
    });
    const run = async (decisions: string[]) =>
      project.runner({ PreToolUse: [{ hooks: decisions.map(say) }] }).preToolUse(args({ text: "x" }));
    expect(await run(["allow", "ask", "deny"])).toMatchObject({ decision: "deny", reason: "deny hook" });
    expect(await run(["deny", "allow"])).toMatchObject({ decision: "deny" });
    expect(await run(["allow", "ask"])).toMatchObject({ decision: "ask", reason: "ask hook" });
    expect(await run(["allow", "allow"])).toMatchObject({ decision: "allow" });
  });

  it("keeps a rewrite only from a hook that agrees with the outcome, and never under deny", async () => {
    const hook = (decision: string, text: string) => ({
      type: "command" as const,
      command: `echo '{"hookSpecificOutput":{"permissionDecision":"${decision}","updatedInput":{"text":"${text}"}}}'`,
    });
    const run = async (hooks: ReturnType<typeof hook>[]) =>
      project.runner({ PreToolUse: [{ hooks }] }).preToolUse(args({ text: "x" }));
    expect((await run([hook("allow", "a"), hook("ask", "b")])).updatedInput).toEqual({ text: "b" });
    expect((await run([hook("allow", "a"), hook("deny", "b")])).updatedInput).toBeUndefined();
  });

  it("picks hooks by matcher: exact names, | lists, regexes, everything", async () => {
    const config: HooksConfig = {
      PreToolUse: [
        { matcher: "Echo", hooks: [{ type: "command", command: "echo exact >&2; exit 1" }] },
        { matcher: "Read|Write", hooks: [{ type: "command", command: "echo list >&2; exit 1" }] },
        { matcher: "^Re.*", hooks: [{ type: "command", command: "echo regex >&2; exit 1" }] },
        { matcher: "", hooks: [{ type: "command", command: "echo all >&2; exit 1" }] },
        { matcher: "Ech", hooks: [{ type: "command", command: "echo partial >&2; exit 1" }] },
      ],
    };
    const runner = project.runner(config);
    const ran = async (t = tool) =>
      (await runner.preToolUse(args({ text: "x" }, t))).userMessages.map((m) => m.split("\n")[1]);
    expect(await ran(tool)).toEqual(["exact", "all"]);
    expect(await ran(readTool)).toEqual(["list", "regex", "all"]);
  });

  it("runs a hook with an `if` rule only for calls the rule covers", async () => {
    const webFetch = { ...scenarioTool("WebFetch"), ruleMatcher: webFetchRuleMatcher };
    const config: HooksConfig = {
      PreToolUse: [
        {
          matcher: "*",
          hooks: [
            { type: "command", command: "echo domain >&2; exit 2", if: "WebFetch(domain:example.com)" },
            { type: "command", command: "echo blanket >&2; exit 2", if: "Echo" },
          ],
        },
      ],
    };
    const runner = project.runner(config);
    const fetch = (text: string) => ({
      tool: webFetch,
      input: { url: text, text },
      toolUseId: "w",
      context: project.context,
      signal,
    });
    expect((await runner.preToolUse(fetch("https://docs.example.com/x"))).reason).toBe("domain");
    expect((await runner.preToolUse(fetch("https://example.org/"))).outcomes).toEqual([]);
    expect((await runner.preToolUse(args({ text: "x" }))).reason).toBe("blanket");
  });

  it("a hook that cannot start is a non-blocking error", async () => {
    const runner = project.runner(toolHooks("/nonexistent/hook-binary"));
    const result = await runner.preToolUse(args({ text: "x" }));
    expect(result.decision).toBeUndefined();
    expect(result.userMessages[0]).toMatch(/failed with exit code 127[\s\S]*No such file/);
  });

  it("an aborted call cancels its hooks", async () => {
    const controller = new AbortController();
    const runner = project.runner(toolHooks(BASH_HOOK));
    const running = runner.preToolUse({ ...args({ text: "x", pre: "sleep" }), signal: controller.signal });
    await waitUntil(() => existsSync(join(project.dir, "sleeper.pid")));
    controller.abort();
    const result = await running;
    expect(result.outcomes[0]).toMatchObject({ outcome: "cancelled" });
    expect(result.userMessages).toEqual([]);
  });
});

describe("HookRunner: HTTP hooks", () => {
  let server: Server;
  let url: string;
  const received: Array<{ headers: IncomingMessage["headers"]; body: unknown }> = [];
  let reply: { status: number; body: string } = { status: 200, body: "" };
  beforeEach(async () => {
    received.length = 0;
    server = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk) => {
        body += chunk;
      });
      request.on("end", () => {
        received.push({ headers: request.headers, body: JSON.parse(body) });
        response.writeHead(reply.status, { "content-type": "application/json" }).end(reply.body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  });
  afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const httpConfig = (extra: Record<string, unknown> = {}): HooksConfig => ({
    PreToolUse: [{ matcher: "Echo", hooks: [{ type: "http", url, ...extra } as never] }],
  });

  it("POSTs the event and reads a 2xx body like stdout", async () => {
    reply = {
      status: 200,
      body: JSON.stringify({
        hookSpecificOutput: { permissionDecision: "deny", permissionDecisionReason: "server says no" },
      }),
    };
    process.env.HOOK_TOKEN = "t0ken";
    process.env.SECRET_NOT_ALLOWED = "leak";
    let result: Awaited<ReturnType<HookRunner["preToolUse"]>>;
    try {
      const headers = { Authorization: "Bearer $HOOK_TOKEN", "X-Other": "$SECRET_NOT_ALLOWED" };
      const runner = project.runner(httpConfig({ headers, allowedEnvVars: ["HOOK_TOKEN"] }));
      result = await runner.preToolUse(args({ text: "x" }));
    } finally {
      delete process.env.HOOK_TOKEN;
      delete process.env.SECRET_NOT_ALLOWED;
    }
    expect(result).toMatchObject({ decision: "deny", reason: "server says no" });
    expect(received[0]?.body).toMatchObject({
      hook_event_name: "PreToolUse",
      tool_name: "Echo",
      tool_input: { text: "x" },
    });
    expect(received[0]?.headers.authorization).toBe("Bearer t0ken");
    expect(received[0]?.headers["x-other"]).toBe("$SECRET_NOT_ALLOWED");
  });

  it("a non-2xx answer or a refused connection is a non-blocking error", async () => {
    reply = { status: 500, body: "boom" };
    const failed = await project.runner(httpConfig()).preToolUse(args({ text: "x" }));
    expect(failed.decision).toBeUndefined();
    expect(failed.userMessages[0]).toMatch(/HTTP 500[\s\S]*boom/);
    const refused = await project
      .runner({ PreToolUse: [{ hooks: [{ type: "http", url: "http://127.0.0.1:1/none" }] }] })
      .preToolUse(args({ text: "x" }));
    expect(refused.userMessages[0]).toMatch(/could not run/);
  });
});

describe("events outside a tool call", () => {
  const session = (): HookSessionInfo => ({
    ...sessionFromContext(project.context),
    transcriptPath: "/t.jsonl",
  });
  const run = (event: string, command: string, matcher?: string): HooksConfig => ({
    [event]: [{ ...(matcher === undefined ? {} : { matcher }), hooks: [{ type: "command", command }] }],
  });

  it("UserPromptSubmit: plain stdout and additionalContext are context; a block refuses the prompt", async () => {
    const plain = project.runner(run("UserPromptSubmit", "cat > /dev/null; echo 'today is Tuesday'"));
    expect(
      (await runUserPromptSubmitHooks(plain, { session: session(), signal, prompt: "hi" })).additionalContext,
    ).toEqual(["today is Tuesday"]);
    const blocker = project.runner(
      run("UserPromptSubmit", `echo '{"decision":"block","reason":"no secrets in prompts"}'`),
    );
    const blocked = await runUserPromptSubmitHooks(blocker, {
      session: session(),
      signal,
      prompt: "my key is ...",
    });
    expect(blocked.block).toMatchObject({ reason: "no secrets in prompts" });
  });

  it("Stop and SubagentStop: exit 2 keeps the model going with the reason", async () => {
    const runner = project.runner({
      ...run("Stop", "echo 'tests still fail' >&2; exit 2"),
      ...run("SubagentStop", `echo '{"decision":"block","reason":"finish the list"}'`),
    });
    expect(
      (await runStopHooks(runner, { session: session(), signal, stopHookActive: false })).block?.reason,
    ).toBe("tests still fail");
    expect(
      (
        await runSubagentStopHooks(runner, {
          session: session(),
          signal,
          stopHookActive: true,
          agentId: "agent_1",
          agentType: "general-purpose",
        })
      ).block?.reason,
    ).toBe("finish the list");
  });

  it("SessionStart matches on the source and adds context; exit 2 is only shown", async () => {
    const runner = project.runner({
      SessionStart: [
        { matcher: "startup", hooks: [{ type: "command", command: "echo 'fresh start'" }] },
        { matcher: "resume", hooks: [{ type: "command", command: "echo 'resumed'" }] },
        { matcher: "startup", hooks: [{ type: "command", command: "echo 'only shown' >&2; exit 2" }] },
      ],
    });
    const result = await runSessionStartHooks(runner, { session: session(), signal, source: "startup" });
    expect(result.additionalContext).toEqual(["fresh start"]);
    expect(result.block).toBeUndefined();
    expect(result.userMessages).toEqual(["only shown"]);
  });

  it("SessionEnd hooks get 1.5 seconds by default", async () => {
    const runner = project.runner(run("SessionEnd", "sleep 20"));
    const result = await runSessionEndHooks(runner, { session: session(), signal, reason: "other" });
    expect(result.userMessages[0]).toMatch(/timed out after 1.5s/);
  });

  it("PermissionRequest: a hook answers for the user, deny beats allow", async () => {
    const answer = (behavior: string) =>
      `echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"${behavior}","message":"${behavior} by hook"}}}'`;
    const runner = project.runner({
      PermissionRequest: [
        {
          matcher: "Echo",
          hooks: [
            { type: "command", command: answer("allow") },
            { type: "command", command: answer("deny") },
          ],
        },
      ],
    });
    const result = await runPermissionRequestHooks(runner, {
      session: session(),
      signal,
      toolName: "Echo",
      toolInput: { text: "x" },
      suggestions: [{ behavior: "allow", rule: "Echo", destination: "local" }],
    });
    expect(result.permissionDecision).toMatchObject({ behavior: "deny", message: "deny by hook" });
  });

  it("Notification and PreCompact get their fields on stdin", async () => {
    const log = join(project.dir, "events.jsonl");
    const runner = project.runner({
      ...run("Notification", `cat >> ${log}; echo >> ${log}`),
      ...run("PreCompact", `cat >> ${log}; echo >> ${log}; echo 'not now' >&2; exit 2`, "manual"),
    });
    await runNotificationHooks(runner, {
      session: session(),
      signal,
      message: "Keel needs you",
      notificationType: "permission_prompt",
    });
    const compact = await runPreCompactHooks(runner, {
      session: session(),
      signal,
      trigger: "manual",
      customInstructions: "keep tests",
    });
    expect(compact.block?.reason).toBe("not now");
    const entries = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(entries[0]).toMatchObject({
      hook_event_name: "Notification",
      message: "Keel needs you",
      notification_type: "permission_prompt",
      transcript_path: "/t.jsonl",
      session_id: "session-1",
    });
    expect(entries[1]).toMatchObject({
      hook_event_name: "PreCompact",
      trigger: "manual",
      custom_instructions: "keep tests",
    });
  });
});

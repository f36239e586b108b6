// Agents beyond one turn, with real `keel` processes against scripted model servers on 127.0.0.1:
// resuming a sub-agent by name after `keel -c`, a message between two live sessions, a durable cron job
// firing in a session, auto mode setting an interpreter rule aside, and the classifier's verdict
// recorded in default mode.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cliProviderArgs, startServer } from "../../agent/testing/harness.ts";
import { type ScriptTurn, text, toolUse } from "../../agent/testing/script.ts";
import type { ScriptedServer } from "../../agent/testing/server.ts";
import { auditDir } from "../../audit/jsonlSink.ts";
import { readAuditRecords } from "../../audit/readAudit.ts";
import { until } from "../../pipeline/testing/tools.ts";
import { ENTRY, jsonLines, type KeelWorld, keelWorld, runKeel } from "../testing/keelProcess.ts";

const servers: ScriptedServer[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A world whose sessions keep their sockets in a private folder of its own. */
function world(): KeelWorld {
  const made = keelWorld();
  const runtime = join(made.root, "runtime");
  mkdirSync(runtime, { mode: 0o700 });
  made.env.KEEL_DECISION_SERVER_DIR = runtime;
  return made;
}

type Body = Record<string, unknown>;
type Message = { role: string; content: unknown };

const messagesOf = (body: Body) => (body.messages ?? []) as Message[];
const textOf = (value: unknown) => JSON.stringify(value);
const assistantTurns = (body: Body) =>
  messagesOf(body).filter((message) => message.role === "assistant").length;
const firstUserText = (body: Body) => textOf(messagesOf(body)[0]?.content ?? "");

/** A script that answers each conversation by how many answers it already holds. */
function byRole(roles: Array<{ when: (body: Body) => boolean; turns: ScriptTurn[] }>) {
  return (request: { body: Body }) => {
    for (const role of roles) {
      if (!role.when(request.body)) continue;
      const turn = role.turns[assistantTurns(request.body)];
      if (!turn)
        throw new Error(
          `no scripted turn ${assistantTurns(request.body)} for ${firstUserText(request.body)}`,
        );
      return turn;
    }
    throw new Error(`no role for ${firstUserText(request.body)}`);
  };
}

describe("resuming a sub-agent", () => {
  it("by name, after the parent session is continued with keel -c, with what it had read", async () => {
    const w = world();
    const notes = join(w.project, "notes.txt");
    writeFileSync(notes, "hello\n");
    const isSub = (body: Body) => firstUserText(body).includes("SUBTASK");
    const server = await startServer(
      "anthropic",
      byRole([
        {
          when: isSub,
          turns: [
            { blocks: [toolUse("Read", { file_path: notes })] },
            { blocks: [text("The notes say hello.")] },
            { blocks: [toolUse("Edit", { file_path: notes, old_string: "hello", new_string: "bye" })] },
            { blocks: [text("Changed hello to bye.")] },
          ],
        },
        {
          when: () => true,
          turns: [
            {
              blocks: [
                toolUse("Agent", {
                  description: "read the notes",
                  prompt: "SUBTASK: read notes.txt and tell me what it says",
                  name: "helper",
                  team_name: "ignored",
                  mode: "ignored",
                }),
              ],
            },
            { blocks: [text("The helper read the notes.")] },
            { blocks: [toolUse("SendMessage", { to: "helper", message: "RESUME: change hello to bye" })] },
            { blocks: [text("Asked the helper; waiting for its answer.")] },
            { blocks: [text("The helper is done: the notes say bye.")] },
          ],
        },
      ]),
    );
    servers.push(server);
    const first = await runKeel(["run", ...cliProviderArgs(server), "start the helper"], w);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);

    const second = await runKeel(
      [
        "run",
        "-c",
        "--allow",
        "Edit",
        "--output-format",
        "json",
        ...cliProviderArgs(server),
        "ask the helper to edit",
      ],
      w,
    );
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout).result).toBe("The helper is done: the notes say bye.");
    expect(readFileSync(notes, "utf8")).toBe("bye\n");

    // The resumed helper's request carried its first run (its Read of the file), and its Edit worked
    // without a new Read: what it had read came back with it.
    const subRequests = server.requests.filter((request) => isSub(request.body));
    const afterEdit = subRequests.at(-1)!;
    expect(textOf(afterEdit.body.messages)).toContain("The notes say hello.");
    expect(textOf(afterEdit.body.messages)).toContain("RESUME: change hello to bye");
    const editResult = messagesOf(afterEdit.body).at(-1)!;
    expect(textOf(editResult.content)).not.toContain('"is_error":true');
    // Its answer reached the parent as a task notification.
    const lastMain = server.requests.filter((request) => !isSub(request.body)).at(-1)!;
    expect(textOf(lastMain.body.messages)).toMatch(/task-notification.*Changed hello to bye/);
  }, 60_000);
});

/** `keel run` reading prompts from stdin, kept open until `end()`: a session that stays idle between turns. */
function openSession(args: string[], w: KeelWorld) {
  const child = spawn(process.execPath, [ENTRY, ...args], {
    cwd: w.project,
    env: w.env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  children.push(child);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString("utf8");
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return {
    stdout: () => stdout,
    stderr: () => stderr,
    end: async () => {
      child.stdin.end();
      return exited;
    },
  };
}

/** The session "bee", idle between stream-json prompts, once its socket is there for others to find. */
async function openBee(server: Parameters<typeof cliProviderArgs>[0], w: KeelWorld) {
  const bee = openSession(
    [
      "run",
      "--name",
      "bee",
      "--input-format",
      "stream-json",
      "--output-format",
      "stream-json",
      ...cliProviderArgs(server),
    ],
    w,
  );
  await until(() => sessionFiles(w).some((name) => name.endsWith(".json")), "bee's socket");
  return bee;
}

function sessionFiles(w: KeelWorld): string[] {
  const dir = join(w.env.KEEL_DECISION_SERVER_DIR as string, "sessions");
  return existsSync(dir) ? readdirSync(dir) : [];
}

describe("messages between sessions", () => {
  it("a session lists another and sends it a message, which it answers between its turns", async () => {
    const w = world();
    const beeServer = await startServer("anthropic", [{ blocks: [text("pong, got it")] }]);
    servers.push(beeServer);
    const bee = await openBee(beeServer, w);

    const antServer = await startServer("anthropic", [
      { blocks: [toolUse("ListAgents", {})] },
      { blocks: [toolUse("SendMessage", { to: "bee", message: "PING from ant" })] },
      { blocks: [text("sent")] },
    ]);
    servers.push(antServer);
    const ant = await runKeel(
      ["run", "--name", "ant", "--allow", "SendMessage", ...cliProviderArgs(antServer), "talk to bee"],
      w,
    );
    expect(ant.code).toBe(0);
    expect(textOf(antServer.requests[1]?.body.messages)).toMatch(/session bee [0-9a-f-]{36}\s+keel run/);
    expect(textOf(antServer.requests[2]?.body.messages)).toContain("Message delivered to the session bee");

    await until(() => bee.stdout().includes("pong, got it"), "bee's answer");
    const heard = textOf(beeServer.requests[0]?.body.messages);
    expect(heard).toContain("PING from ant");
    expect(heard).toMatch(/Message from another Keel session of this user, \\"ant\\"/);
    expect(await bee.end()).toBe(0);
    const records = jsonLines(bee.stdout());
    expect(records.find((record) => record.type === "result")?.result).toBe("pong, got it");
    expect(sessionFiles(w)).toEqual([]);
  }, 60_000);

  it("without a rule allowing it, a message to another session needs an approval nobody can give in keel run", async () => {
    const w = world();
    const beeServer = await startServer("anthropic", []);
    servers.push(beeServer);
    const bee = await openBee(beeServer, w);
    const antServer = await startServer("anthropic", [
      { blocks: [toolUse("SendMessage", { to: "bee", message: "PING" })] },
      { blocks: [text("could not")] },
    ]);
    servers.push(antServer);
    const ant = await runKeel(
      ["run", "--output-format", "json", ...cliProviderArgs(antServer), "talk to bee"],
      w,
    );
    expect(
      JSON.parse(ant.stdout).permission_denials.map((denial: { tool_name: string }) => denial.tool_name),
    ).toEqual(["SendMessage"]);
    expect(beeServer.requests).toEqual([]);
    await bee.end();
  }, 60_000);
});

describe("scheduled prompts in a session", () => {
  it("a durable job whose time came while no session was open fires when one opens, and says so", async () => {
    const w = world();
    mkdirSync(join(w.project, ".keel"));
    const file = join(w.project, ".keel", "scheduled_tasks.json");
    writeFileSync(
      file,
      JSON.stringify({
        tasks: [
          {
            id: "cron_00c0ffee",
            cron: "*/15 * * * *",
            prompt: "POLL the deploy",
            recurring: true,
            createdAt: Date.now() - 2 * 3600_000,
          },
        ],
      }),
    );
    const server = await startServer("anthropic", [{ blocks: [text("deploy is green")] }]);
    servers.push(server);
    const run = await runKeel(
      ["run", "--input-format", "stream-json", "--output-format", "stream-json", ...cliProviderArgs(server)],
      w,
      "",
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(
      /keel: Scheduled prompt fired: cron_00c0ffee \("\*\/15 \* \* \* \*"\), late: missed at/,
    );
    const prompt = textOf(server.requests[0]?.body.messages);
    expect(prompt).toContain("POLL the deploy");
    expect(prompt).toContain(
      "durable job cron_00c0ffee, kept in .keel/scheduled_tasks.json; it fires while a Keel session is open in this project",
    );
    expect(jsonLines(run.stdout).find((record) => record.type === "result")?.result).toBe("deploy is green");
    expect(JSON.parse(readFileSync(file, "utf8")).tasks[0].lastFiredAt).toBeTypeOf("number");
  }, 60_000);
});

describe("auto mode and interpreter rules", () => {
  it("sets Bash(python3:*) aside in auto mode, tells the person, and it applies again outside auto mode", async () => {
    const w = world();
    const server = await startServer(
      "anthropic",
      [
        { blocks: [toolUse("Bash", { command: "python3 build.py" })] },
        { blocks: [text("could not run it")] },
      ],
      undefined,
      () => ({ blocks: [text("ASK: runs a script the user did not name")] }),
    );
    servers.push(server);
    const run = await runKeel(
      [
        "run",
        "--mode",
        "auto",
        "--allow",
        "Bash(python3:*)",
        "--output-format",
        "json",
        ...cliProviderArgs(server),
        "build it",
      ],
      w,
    );
    expect(run.stderr).toMatch(
      /Auto mode sets aside allow rules .*Bash\(python3:\*\) \(cliArg: python3 runs any code it is given\)/,
    );
    const result = JSON.parse(run.stdout);
    expect(result.permission_denials.map((denial: { tool_name: string }) => denial.tool_name)).toEqual([
      "Bash",
    ]);
    expect(textOf(server.requests[1]?.body.messages)).toContain("is set aside in auto mode");
    expect(server.classifierRequests).toHaveLength(1);

    const check = (mode: string) =>
      runKeel(
        ["check", "Bash", '{"command": "python3 build.py"}', "--mode", mode, "--allow", "Bash(python3:*)"],
        w,
      );
    const inDefault = await check("default");
    expect(inDefault.code).toBe(0);
    expect(inDefault.stdout).toContain("allow rule Bash(python3:*)");
    expect((await check("auto")).code).toBe(1);
  }, 60_000);
});

describe("the classifier in default mode", () => {
  it("judges an allowed call; a verdict that comes after the decision is recorded, linked by tool_use_id", async () => {
    const w = world();
    let secondRequest: () => void = () => {};
    const mainGoesOn = new Promise<void>((resolve) => {
      secondRequest = resolve;
    });
    const turns: ScriptTurn[] = [
      { blocks: [toolUse("Bash", { command: "ls" }, "toolu_ls")] },
      { blocks: [text("listed")] },
    ];
    const server = await startServer(
      "anthropic",
      (_request, index) => {
        if (index === 1) secondRequest();
        return turns[index]!;
      },
      undefined,
      // The verdict is held until the call has run and the model was asked again: it comes late.
      () => ({ blocks: [text("ASK: lists files outside the task")], beforeStop: () => mainGoesOn }),
    );
    servers.push(server);
    const run = await runKeel(["run", "--allow", "Bash(ls:*)", ...cliProviderArgs(server), "list"], w);
    expect(run.code).toBe(0);
    const records = [...readAuditRecords({ dir: auditDir(w.env) })].filter(
      (record) => record.toolUseId === "toolu_ls",
    );
    expect(records).toHaveLength(2);
    expect(records[0]).toMatchObject({ behavior: "allow", tool: "Bash" });
    expect(records[0]?.classifier).toBeUndefined();
    expect(records[1]).toMatchObject({
      classifierVerdictFor: "toolu_ls",
      behavior: "allow",
      classifier: { behavior: "ask", reason: "lists files outside the task" },
    });
  }, 60_000);
});

describe("keel tools --json", () => {
  it("lists the new tools with Claude Code's schemas", async () => {
    const w = world();
    const run = await runKeel(["tools", "--json"], w);
    const tools = JSON.parse(run.stdout) as Array<{
      name: string;
      inputSchema: { properties: Record<string, { description?: string }> };
    }>;
    const properties = (name: string) =>
      Object.keys(tools.find((tool) => tool.name === name)?.inputSchema.properties ?? {});
    expect(properties("CronCreate")).toEqual(["cron", "prompt", "recurring", "durable"]);
    expect(properties("CronList")).toEqual([]);
    expect(properties("CronDelete")).toEqual(["id"]);
    expect(properties("ScheduleWakeup")).toEqual(["delaySeconds", "reason", "prompt", "stop"]);
    expect(properties("ListAgents")).toEqual(["cursor", "limit"]);
    expect(properties("SendMessage")).toEqual(["to", "message"]);
    const agent = tools.find((tool) => tool.name === "Agent")!.inputSchema.properties;
    expect(agent.team_name?.description).toMatch(/^Deprecated and ignored/);
    expect(agent.mode?.description).toMatch(/^Deprecated and ignored/);
  }, 60_000);
});

// The CLI as users run it: compiled, bundled (scripts/bundle-cli.mjs) and started by bin/keel.js. The
// bundle must find the files Keel reads beside its modules (prompts, agent types, the Bash grammar)
// and serve MCP; a closed stdout ends a command quietly, not with an EPIPE stack trace.
import { spawn, spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliProviderArgs, startServer, TEST_KEY } from "../agent/testing/harness.ts";
import { text } from "../agent/testing/script.ts";
import { notOnHookPath, toolsLoaded, writeModuleRecorder } from "../guard/testing/leanPath.ts";

const repo = join(import.meta.dirname, "../..");
// Inside the repository, so the bundle's external packages resolve from its node_modules.
const build = join(repo, "node_modules/.cache", `keel-bundle-test-${process.pid}`);
const launcher = join(build, "bin/keel.js");
let project: string;
let home: string;

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { cwd: repo, encoding: "utf8", timeout: 120_000 });
  if (result.status !== 0) throw new Error(`${args.join(" ")} failed:\n${result.stdout}${result.stderr}`);
}

beforeAll(() => {
  rmSync(build, { recursive: true, force: true });
  const dist = join(build, "dist");
  run(join(repo, "node_modules/.bin/tsc"), [
    "-p",
    "tsconfig.build.json",
    "--outDir",
    dist,
    "--declaration",
    "false",
  ]);
  run(process.execPath, ["scripts/copy-assets.mjs", dist]);
  run(process.execPath, ["scripts/bundle-cli.mjs", dist]);
  cpSync(join(repo, "bin"), join(build, "bin"), { recursive: true });
  // The package's layout: package.json (where the version is read) beside bin/ and dist/.
  cpSync(join(repo, "package.json"), join(build, "package.json"));
  project = mkdtempSync(join(tmpdir(), "keel-bundle-project-"));
  home = mkdtempSync(join(tmpdir(), "keel-bundle-home-"));
  writeFileSync(join(project, "notes.txt"), "alpha\nbeta\n");
}, 180_000);
afterAll(() => {
  rmSync(build, { recursive: true, force: true });
  rmSync(project, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

// TMPDIR too: the bundle's compiled-code cache (a build of its own) stays in the test's folder.
const env = () => ({ ...process.env, KEEL_HOME: home, HOME: home, TMPDIR: home }) as Record<string, string>;

/**
 * The bundle's files a `keel hook claude-code` process (deciding alone, as a first call does) loads for one
 * call, and the modules they hold as repository paths (src/....ts, node_modules/...), from the map the
 * build writes beside the bundle (dist/cli-bundle.sources.json).
 */
function hookProcessLoads(toolName: string, toolInput: Record<string, unknown>) {
  const recorder = writeModuleRecorder(build);
  const list = join(build, "loaded.json");
  const event = {
    session_id: "bundle-test",
    transcript_path: join(project, "transcript.jsonl"),
    cwd: project,
    permission_mode: "default",
    hook_event_name: "PreToolUse",
    tool_name: toolName,
    tool_input: toolInput,
    tool_use_id: "toolu_bundle",
  };
  const run = spawnSync(process.execPath, ["--import", recorder, launcher, "hook", "claude-code"], {
    cwd: project,
    input: JSON.stringify(event),
    env: { ...env(), KEEL_DECISION_SERVER: "off", KEEL_TEST_LOADED: list },
    encoding: "utf8",
  });
  expect(run.stdout).toContain('"permissionDecision":"allow"');
  const bundleDir = `${join(build, "dist/cli-bundle")}/`;
  const loaded = JSON.parse(readFileSync(list, "utf8")) as string[];
  const builtins = loaded.filter((url) => url.startsWith("builtin:")).map((url) => url.slice(8));
  const files = loaded
    .filter((url) => url.startsWith("file:"))
    .map((url) => new URL(url).pathname)
    .filter((path) => path.startsWith(bundleDir))
    .map((path) => path.slice(bundleDir.length));
  const sources = JSON.parse(readFileSync(join(build, "dist/cli-bundle.sources.json"), "utf8")) as Record<
    string,
    string[]
  >;
  const modules = files.flatMap((file) => sources[file] ?? [`(no sources for ${file})`]);
  const repoPaths = modules.map((module) =>
    module.startsWith("node_modules/") || module.includes(":")
      ? module
      : `src/${module.replace(/\.js$/, ".ts")}`,
  );
  return { files, modules: repoPaths, builtins };
}

/** `client` talking to the bundled `keel mcp` over stdio, in the test project. */
function connectBundledMcp(client: Client): Promise<void> {
  return client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [launcher, "mcp", "--cwd", project],
      env: env(),
      stderr: "ignore",
    }),
  );
}

describe("the bundled CLI", () => {
  it("is a few chunks, and reads no sibling file relative to itself", () => {
    const chunks = readdirSync(join(build, "dist/cli-bundle"));
    expect(chunks).toContain("main.js");
    // keel check and keel hook load the one tool they judge (tools/catalog.ts): each such tool and what
    // only it uses is a file of its own; the commands' groups, the other tools, and the files of commands
    // that start rarely (the agent, the worker, the telemetry flusher) make the rest (scripts/groupChunks.mjs).
    expect(chunks.length).toBeLessThan(200);
    for (const chunk of chunks) {
      const code = readFileSync(join(build, "dist/cli-bundle", chunk), "utf8");
      expect(code).not.toMatch(/new URL\(["'`]\.\/[^)]*import\.meta\.url\)/);
    }
    // Every tool's meta (tools/<name>/meta.ts) is read at each start: all of them in one chunk, not a file each.
    const withMetas = chunks.filter((chunk) =>
      /ToolMeta=\{name:/.test(readFileSync(join(build, "dist/cli-bundle", chunk), "utf8")),
    );
    expect(withMetas).toHaveLength(1);
  });

  // Each file a start loads costs ~0.3 ms; the files a hook process loads hold only what deciding needs.
  it("decides a hook event from a handful of files, with only what the lean path allows", () => {
    for (const [tool, input, judged] of [
      ["Read", { file_path: join(project, "notes.txt") }, "read"],
      ["Bash", { command: "git status && git diff" }, "bash"],
    ] as const) {
      const { files, modules, builtins } = hookProcessLoads(tool, input);
      expect(files.length).toBeLessThanOrEqual(5);
      // Built-ins that cost a start milliseconds load on first use (scripts/bundle-cli.mjs, lazy-builtins);
      // the random bytes of a start come from /dev/urandom (tool/lazyCrypto.ts).
      const deferred = [
        "crypto",
        "internal/crypto/webcrypto",
        "child_process",
        "fs/promises",
        "internal/readline/interface",
      ];
      expect(builtins.filter((name) => deferred.includes(name))).toEqual([]);
      expect(builtins).toContain("net"); // the recorder sees built-ins (stdout is a pipe here)
      expect(notOnHookPath(modules)).toEqual([]);
      expect(toolsLoaded(modules)).toEqual([judged]);
    }
  });

  it("answers a check through the descriptors: no stream, socket or tty objects built (~4 ms)", () => {
    const recorder = writeModuleRecorder(build);
    const list = join(build, "loaded-check.json");
    const run = spawnSync(
      process.execPath,
      [
        "--import",
        recorder,
        launcher,
        "check",
        "Read",
        JSON.stringify({ file_path: join(project, "notes.txt") }),
      ],
      {
        cwd: project,
        input: "",
        env: { ...env(), KEEL_DECISION_SERVER: "off", KEEL_TEST_LOADED: list },
        encoding: "utf8",
      },
    );
    expect(run.stdout).toContain("ALLOW");
    expect(run.status).toBe(0);
    const builtins = (JSON.parse(readFileSync(list, "utf8")) as string[])
      .filter((url) => url.startsWith("builtin:"))
      .map((url) => url.slice(8));
    expect(builtins.filter((name) => ["net", "tty", "stream", "internal/tty"].includes(name))).toEqual([]);
  });

  it("serves MCP with every tool's prompt from its file", async () => {
    const client = new Client({ name: "bundle-test", version: "1" });
    await connectBundledMcp(client);
    try {
      const { tools } = await client.listTools();
      const firstLine = (file: string) =>
        readFileSync(join(repo, "src/tools", file), "utf8").split("\n")[0] as string;
      const read = tools.find((tool) => tool.name === "Read");
      expect(read?.description).toContain(firstLine("read/prompt.md").slice(0, 40));
      const bash = tools.find((tool) => tool.name === "Bash");
      expect(bash?.description).toContain(firstLine("bash/prompt.md").slice(0, 40));
      const result = await client.callTool({
        name: "Read",
        arguments: { file_path: join(project, "notes.txt") },
      });
      expect(JSON.stringify(result.content)).toContain("alpha");
    } finally {
      await client.close();
    }
  });

  it("asks through elicitation and checks the answer against its schema (ajv loaded on demand)", async () => {
    const answers = [{ decision: "not-a-choice" }, { decision: "allow_once" }];
    const client = new Client(
      { name: "bundle-elicit", version: "1" },
      { capabilities: { elicitation: { form: {} } } },
    );
    client.setRequestHandler(ElicitRequestSchema, async () => ({
      action: "accept",
      content: answers.shift()!,
    }));
    await connectBundledMcp(client);
    try {
      const write = (name: string) =>
        client.callTool({ name: "Write", arguments: { file_path: join(project, name), content: "x\n" } });
      // An answer outside the schema's enum fails the SDK's check: the call does not go ahead.
      const refused = await write("first.txt");
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toContain("must be equal to one of the allowed values");
      expect(JSON.stringify(refused.content)).toContain(
        "Asking the user for approval through this MCP client failed",
      );
      expect(existsSync(join(project, "first.txt"))).toBe(false);
      const allowed = await write("second.txt");
      expect(allowed.isError).toBeFalsy();
      expect(readFileSync(join(project, "second.txt"), "utf8")).toBe("x\n");
    } finally {
      await client.close();
    }
  });

  it("runs the agent with its system prompt and the agent types from their files", async () => {
    const server = await startServer("anthropic", [{ blocks: [text("Done.")] }]);
    try {
      const child = spawn(process.execPath, [launcher, "run", ...cliProviderArgs(server), "hi"], {
        cwd: project,
        env: { ...env(), ANTHROPIC_API_KEY: TEST_KEY },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      child.stdout.on("data", (chunk) => {
        stdout += chunk;
      });
      const code = await new Promise((resolve) => child.once("close", resolve));
      expect({ code, stdout }).toEqual({ code: 0, stdout: "Done.\n" });
      const body = JSON.stringify(server.requests[0]?.body);
      const systemPrompt = readFileSync(join(repo, "src/agent/prompt.md"), "utf8").split("\n")[0] as string;
      expect(body).toContain(JSON.stringify(systemPrompt.slice(0, 40)).slice(1, -1));
      expect(body).toContain("general-purpose");
    } finally {
      await server.close();
    }
  });

  it("searches with the rg binary found from the bundle", () => {
    const result = spawnSync(
      process.execPath,
      [launcher, "tool", "Grep", JSON.stringify({ pattern: "beta", path: project })],
      { cwd: project, env: env(), encoding: "utf8" },
    );
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain("notes.txt");
  });

  it("calls a stdio MCP server from --mcp-config (the SDK client, bundled)", () => {
    const server = join(repo, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    const config = JSON.stringify({
      mcpServers: { everything: { command: process.execPath, args: [server] } },
    });
    const result = spawnSync(
      process.execPath,
      [
        launcher,
        "tool",
        "mcp__everything__echo",
        '{"message":"from the bundle"}',
        "--mcp-config",
        config,
        "--allow",
        "mcp__everything",
      ],
      { cwd: project, env: env(), encoding: "utf8", timeout: 60_000 },
    );
    expect(result.stdout).toContain("Echo: from the bundle");
    expect(result.status).toBe(0);
  });

  it("serves MCP over Streamable HTTP", async () => {
    const child = spawn(process.execPath, [launcher, "mcp", "--http", "0", "--cwd", project], {
      env: env(),
      stdio: ["ignore", "ignore", "pipe"],
    });
    try {
      let stderr = "";
      await new Promise<void>((resolve, reject) => {
        child.stderr.on("data", (chunk) => {
          stderr += chunk;
          if (/token: \S+/.test(stderr) && /at http:\S+\/mcp/.test(stderr)) resolve();
        });
        child.once("exit", () => reject(new Error(`keel mcp --http exited: ${stderr}`)));
      });
      const url = /at (http:\/\/\S+\/mcp)/.exec(stderr)?.[1] as string;
      const token = /token: (\S+)/.exec(stderr)?.[1] as string;
      const client = new Client({ name: "bundle-http", version: "1" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(url), {
          requestInit: { headers: { Authorization: `Bearer ${token}` } },
        }),
      );
      const result = await client.callTool({
        name: "Read",
        arguments: { file_path: join(project, "notes.txt") },
      });
      expect(JSON.stringify(result.content)).toContain("beta");
      await client.close();
    } finally {
      child.kill();
    }
  });

  it("reports the version of its package.json", () => {
    const { version } = JSON.parse(readFileSync(join(repo, "package.json"), "utf8")) as { version: string };
    const result = spawnSync(process.execPath, [launcher, "--version"], { env: env(), encoding: "utf8" });
    expect(result.stdout.trim()).toBe(version);
  });

  it("judges Bash with the tree-sitter grammar found from the bundle", () => {
    const result = spawnSync(
      process.execPath,
      [launcher, "check", "Bash", JSON.stringify({ command: "ls && rm -rf /" }), "--json"],
      { cwd: project, env: env(), encoding: "utf8" },
    );
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout)).toMatchObject({
      behavior: "ask",
      details: { check: "dangerous-removal" },
    });
  });

  it("parses a long Bash command without optimising the grammar's lexer", () => {
    // ~4,500 characters: V8's own tiering optimises the grammar's lexer after a few hundred characters
    // (~0.45 s and ~600 MB on a background thread, which the exit waits for). V8 traces each wasm function
    // it compiles, and with which compiler; the trace goes to stdout beside the verdict.
    const command = Array.from({ length: 100 }, (_, i) => `echo "item ${i}" | grep -e x${i}`).join(" && ");
    const result = spawnSync(
      process.execPath,
      ["--trace-wasm-compilation-times", launcher, "check", "Bash", JSON.stringify({ command }), "--json"],
      { cwd: project, env: { ...env(), KEEL_DECISION_SERVER: "off" }, encoding: "utf8" },
    );
    expect(result.stderr).toBe("");
    const lines = result.stdout.split("\n");
    const compiled = lines.filter((line) => line.startsWith("Compiled function"));
    expect(compiled.some((line) => line.includes("using Liftoff"))).toBe(true);
    // A few small functions of the runtime run while the grammar loads, before any parse and under V8's
    // defaults (grammar/wasmCompiler.ts): V8 may optimise those, in a few ms. Never the lexer (~160 KB)
    // or the parser's loop (~27 KB), which first run inside a parse.
    const bodySize = (line: string) => Number(/bodysize (\d+)/.exec(line)?.[1] ?? Number.NaN);
    const optimised = compiled.filter((line) => line.includes("using TurboFan"));
    expect(optimised.filter((line) => !(bodySize(line) < 10_000))).toEqual([]);
    const verdict = lines.filter((line) => !line.startsWith("Compiled function")).join("\n");
    expect(JSON.parse(verdict)).toMatchObject({ behavior: "allow" });
  });

  it("keeps one compiled-code cache entry per file whatever the order of commands", () => {
    // V8 rejects a cached compile made under other flags. Bash checks once set V8 flags for the rest of
    // their process: the Bash tool's code, loaded before them by `check` and after them by `hook`, was
    // rejected and written anew by every other command. Node reports each rejection when asked.
    const event = JSON.stringify({
      session_id: "bundle-test",
      transcript_path: join(project, "transcript.jsonl"),
      cwd: project,
      permission_mode: "default",
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "git status && git diff" },
      tool_use_id: "toolu_bundle",
    });
    const check = [launcher, "check", "Bash", JSON.stringify({ command: "ls -la" })];
    const hook = [launcher, "hook", "claude-code"];
    const runs = [check, hook, [launcher, "tools"], hook, check, hook].map((argv) =>
      spawnSync(process.execPath, argv, {
        cwd: project,
        input: argv === hook ? event : "",
        env: { ...env(), KEEL_DECISION_SERVER: "off", NODE_DEBUG_NATIVE: "COMPILE_CACHE" },
        encoding: "utf8",
      }),
    );
    expect(runs.map((run) => run.status)).toEqual([0, 0, 0, 0, 0, 0]);
    // The first run fills the cache; every later one reads it.
    const log = runs.map((run) => run.stderr).join("");
    expect(log).toMatch(/was accepted/);
    expect(log.split("\n").filter((line) => line.includes("was rejected"))).toEqual([]);
  });

  it("remembers a settings file's check, and decides by the file as it is now", () => {
    // The CLI keeps passed checks of settings texts in its compile-cache folder (settings/settingsCheckCache.ts);
    // a changed file is a new text, checked and obeyed at once.
    const settingsHome = mkdtempSync(join(tmpdir(), "keel-bundle-settings-"));
    try {
      const file = join(settingsHome, ".claude", "settings.json");
      const write = (rules: object) => {
        mkdirSync(join(settingsHome, ".claude"), { recursive: true });
        writeFileSync(file, JSON.stringify({ permissions: rules }));
      };
      const check = () =>
        spawnSync(
          process.execPath,
          [launcher, "check", "Read", JSON.stringify({ file_path: join(project, "notes.txt") })],
          {
            cwd: project,
            env: { ...env(), HOME: settingsHome, KEEL_HOME: settingsHome, KEEL_DECISION_SERVER: "off" },
            encoding: "utf8",
          },
        ).status;
      const codes: Array<number | null> = [];
      for (const rules of [{ deny: ["Read"] }, { deny: ["Read"] }, { allow: ["Read"] }, { deny: ["Read"] }]) {
        write(rules);
        codes.push(check());
      }
      expect(codes).toEqual([3, 3, 0, 3]);
      const kept = readdirSync(home, { recursive: true }).filter((path) =>
        String(path).includes("settings-checks/"),
      );
      expect(kept.length).toBeGreaterThanOrEqual(2);
    } finally {
      rmSync(settingsHome, { recursive: true, force: true });
    }
  });

  it("stops quietly when its reader goes away", async () => {
    const child = spawn(process.execPath, [launcher, "tools"], { cwd: project, env: env() });
    child.stdout.destroy();
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    const code = await new Promise((resolve) => child.once("close", resolve));
    expect(stderr).not.toMatch(/EPIPE|at .*\(/);
    expect(code).toBe(0);
  });

  it("ends an MCP session whose client stopped reading, with stdin still open", async () => {
    const child = spawn(process.execPath, [launcher, "mcp", "--cwd", project], { cwd: project, env: env() });
    child.stdout.destroy();
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } })}\n`,
    );
    const code = await new Promise((resolve) => child.once("close", resolve));
    expect(stderr).toContain("stdout closed");
    expect(stderr).not.toMatch(/Unhandled|\n\s+at /);
    expect(code).toBe(0);
    child.stdin.destroy();
  });
});

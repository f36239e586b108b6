// Whether Codex will run Keel's hook, read from what Codex records. The hash table holds what Codex 0.171.0
// itself reported (`codex app-server`, hooks/list, currentHash) for each definition; the live check asks
// a real Codex (KEEL_TEST_CODEX: the path of a `codex` binary, e.g. after
// `npm install --prefix "$TMPDIR/keel-codex" @openai/codex`) and compares its verdict with `keel hook status`.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { keelWorld, runKeel } from "../cli/testing/keelProcess.ts";
import { codexEventLabel, codexHookHash, codexTrust } from "./codexTrust.ts";

describe("codexHookHash: Codex's own hash of a hook definition", () => {
  it.each([
    [
      "PreToolUse",
      undefined,
      { type: "command", command: "keel hook codex", timeout: 30 },
      "sha256:18ae5a10a18f87cb349d228822d0b22c3734b386070a4fce20089925a02ec74d",
    ],
    [
      "PermissionRequest",
      undefined,
      { type: "command", command: "keel hook codex", timeout: 30 },
      "sha256:29957225758cd0559ae6987983b177358abba851c35a0791ec27fa34d96830f5",
    ],
    [
      "PreToolUse",
      "^Bash$",
      { type: "command", command: "keel hook codex --strict" },
      "sha256:9692aa86e53d3540d0f6835f6805b6c05dc9f6b5b804eb6c7bc22fbf18b26e51",
    ],
    [
      "PreToolUse",
      undefined,
      {
        type: "command",
        command: "'/opt/node with space/bin/node' /opt/keel/bin/keel.js hook codex",
        timeout: 30,
        async: true,
      },
      "sha256:9156c21413327f799fe825ad070f25c0bd60b110d10e314e2a8242bb364e348a",
    ],
    [
      "PermissionRequest",
      "*",
      { type: "command", command: "keel hook codex", timeout: 0 },
      "sha256:d3f00345df2f814240afa650ada04ab7580def6c7b45818d290f1166b1400787",
    ],
  ] as const)("%s %s %j", (event, matcher, hook, hash) => {
    expect(codexHookHash(event, matcher, { ...hook })).toBe(hash);
  });

  it("cannot tell for fields Keel does not write", () => {
    expect(
      codexHookHash("PreToolUse", undefined, { type: "command", command: "x", statusMessage: "s" }),
    ).toBe(undefined);
  });

  it.each([
    ["PreToolUse", "pre_tool_use"],
    ["PermissionRequest", "permission_request"],
    ["SessionStart", "session_start"],
  ])("%s is %s in Codex's keys", (event, label) => {
    expect(codexEventLabel(event)).toBe(label);
  });
});

describe("codexTrust: what config.toml records", () => {
  const hook = { type: "command", command: "keel hook codex", timeout: 30 };
  const hooksPath = "/home/u/.codex/hooks.json";
  const settings = { hooks: { PreToolUse: [{ hooks: [hook] }] } };
  const key = `${hooksPath}:pre_tool_use:0:0`;
  const hash = "sha256:18ae5a10a18f87cb349d228822d0b22c3734b386070a4fce20089925a02ec74d";

  it.each([
    ["nothing recorded", "", "untrusted"],
    ["the hash of this definition", `[hooks.state."${key}"]\ntrusted_hash = "${hash}"\n`, "trusted"],
    ["an older hash", `[hooks.state."${key}"]\ntrusted_hash = "sha256:00"\n`, "modified"],
    ["switched off", `[hooks.state."${key}"]\ntrusted_hash = "${hash}"\nenabled = false\n`, "disabled"],
    [
      "another entry's state",
      `[hooks.state."${hooksPath}:pre_tool_use:1:0"]\ntrusted_hash = "${hash}"\n`,
      "untrusted",
    ],
  ])("%s: %s", (_name, toml, trust) => {
    const w = keelWorld();
    mkdirSync(join(w.home, ".codex"), { recursive: true });
    writeFileSync(join(w.home, ".codex", "config.toml"), toml);
    const report = codexTrust(hooksPath, settings, { env: { KEEL_HOME: w.home } });
    expect(report.hooks).toEqual([{ key, event: "PreToolUse", trust }]);
  });

  it("a project's hooks: whether Codex trusts the project", () => {
    const w = keelWorld();
    mkdirSync(join(w.home, ".codex"), { recursive: true });
    const project = join(w.root, "repo");
    writeFileSync(
      join(w.home, ".codex", "config.toml"),
      `[projects."${project}"]\ntrust_level = "trusted"\n`,
    );
    const trusted = codexTrust(join(project, ".codex", "hooks.json"), settings, {
      env: { KEEL_HOME: w.home },
      project,
    });
    expect(trusted.projectTrusted).toBe(true);
    const other = codexTrust(join(w.root, "x", ".codex", "hooks.json"), settings, {
      env: { KEEL_HOME: w.home },
      project: join(w.root, "x"),
    });
    expect(other.projectTrusted).toBe(false);
  });
});

const CODEX = process.env.KEEL_TEST_CODEX;

/** `codex app-server` over stdio: initialize, then hooks/list for a folder. */
class CodexAppServer {
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #waiting = new Map<number, (message: Record<string, unknown>) => void>();
  #buffer = "";
  #id = 0;

  constructor(env: NodeJS.ProcessEnv) {
    this.#child = spawn(CODEX as string, ["app-server"], { env, stdio: ["pipe", "pipe", "pipe"] });
    this.#child.stdout.on("data", (chunk: Buffer) => {
      this.#buffer += chunk.toString("utf8");
      for (let end = this.#buffer.indexOf("\n"); end >= 0; end = this.#buffer.indexOf("\n")) {
        const message = JSON.parse(this.#buffer.slice(0, end)) as Record<string, unknown>;
        this.#buffer = this.#buffer.slice(end + 1);
        if (typeof message.id === "number") this.#waiting.get(message.id)?.(message);
      }
    });
  }

  request(method: string, params: unknown): Promise<Record<string, unknown>> {
    const id = ++this.#id;
    return new Promise((resolve) => {
      this.#waiting.set(id, resolve);
      this.#child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });
  }

  async hooks(
    cwd: string,
  ): Promise<Array<{ key: string; currentHash: string; trustStatus: string; enabled: boolean }>> {
    const answer = (await this.request("hooks/list", { cwds: [cwd] })) as {
      result: {
        data: Array<{
          hooks: Array<{ key: string; currentHash: string; trustStatus: string; enabled: boolean }>;
        }>;
      };
    };
    return answer.result.data[0]?.hooks ?? [];
  }

  close(): void {
    this.#child.kill();
  }
}

describe.skipIf(!CODEX || !existsSync(CODEX))(
  "keel hook status against a real Codex (KEEL_TEST_CODEX)",
  () => {
    const servers: CodexAppServer[] = [];
    afterEach(() => {
      for (const server of servers.splice(0)) server.close();
    });

    async function codexHooks(env: NodeJS.ProcessEnv, cwd: string) {
      const server = new CodexAppServer(env);
      servers.push(server);
      await server.request("initialize", {
        clientInfo: { name: "keel-test", title: null, version: "0" },
        capabilities: null,
      });
      const hooks = await server.hooks(cwd);
      server.close();
      return hooks;
    }

    it("says what Codex says: untrusted, trusted, modified, switched off; a project's file only in a trusted project", {
      timeout: 120_000,
    }, async () => {
      const w = keelWorld();
      mkdirSync(join(w.project, ".git"));
      const codexHome = join(w.home, ".codex");
      const world = { ...w, env: { ...w.env, CODEX_HOME: codexHome } };
      const config = join(codexHome, "config.toml");
      const status = async () => (await runKeel(["hook", "status"], world)).stdout;

      expect((await runKeel(["hook", "install", "codex"], world)).code).toBe(0);
      let hooks = await codexHooks(world.env, w.project);
      expect(hooks.map((hook) => hook.trustStatus)).toEqual(["untrusted", "untrusted"]);
      expect(await status()).toMatch(
        /Codex skips it \(PreToolUse, PermissionRequest\): not trusted yet; open \/hooks/,
      );

      // Trusting in /hooks records the hash Codex computes, as here.
      const trust = (entries: typeof hooks, extra = "") =>
        entries
          .map((hook) => `[hooks.state."${hook.key}"]\ntrusted_hash = "${hook.currentHash}"\n${extra}`)
          .join("\n");
      writeFileSync(config, trust(hooks));
      hooks = await codexHooks(world.env, w.project);
      expect(hooks.map((hook) => hook.trustStatus)).toEqual(["trusted", "trusted"]);
      expect(await status()).toMatch(/Codex runs it: trusted in \/hooks/);

      expect((await runKeel(["hook", "install", "codex", "--strict"], world)).code).toBe(0);
      hooks = await codexHooks(world.env, w.project);
      expect(hooks.map((hook) => hook.trustStatus)).toEqual(["modified", "modified"]);
      expect(await status()).toMatch(
        /Codex skips it \(PreToolUse, PermissionRequest\): changed since it was trusted/,
      );

      writeFileSync(config, trust(hooks, "enabled = false\n"));
      hooks = await codexHooks(world.env, w.project);
      expect(hooks.map((hook) => hook.enabled)).toEqual([false, false]);
      expect(await status()).toMatch(
        /Codex skips it \(PreToolUse, PermissionRequest\): switched off in \/hooks/,
      );
      expect((await runKeel(["hook", "uninstall", "codex"], world)).code).toBe(0);

      // A project's hooks.json: Codex does not load it until the project is trusted.
      expect((await runKeel(["hook", "install", "codex", "--project"], world)).code).toBe(0);
      writeFileSync(config, "");
      expect(await codexHooks(world.env, w.project)).toEqual([]);
      expect(await status()).toMatch(/Codex will not load this file: the project is not trusted in Codex/);
      writeFileSync(config, `[projects."${w.project}"]\ntrust_level = "trusted"\n`);
      hooks = await codexHooks(world.env, w.project);
      expect(
        hooks.map((hook) => [hook.key.startsWith(join(w.project, ".codex", "hooks.json")), hook.trustStatus]),
      ).toEqual([
        [true, "untrusted"],
        [true, "untrusted"],
      ]);
      const projectStatus = await status();
      expect(projectStatus).not.toMatch(/project is not trusted/);
      expect(projectStatus).toMatch(/not trusted yet/);
      expect(readFileSync(join(w.project, ".codex", "hooks.json"), "utf8")).not.toContain(w.root);
    });
  },
);

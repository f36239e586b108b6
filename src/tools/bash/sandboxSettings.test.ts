// Claude Code's sandbox settings with real bubblewrap: excludedCommands, dangerouslyDisableSandbox and
// allowUnsandboxedCommands, network.allowedDomains, filesystem.allowWrite / denyWrite.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { decidePermission } from "../../permissions/engine.ts";
import { loadSettings } from "../../settings/load.ts";
import { initBashParser } from "../../shell/analyze/grammar/parse.ts";
import { sandboxPolicy, sandboxUnavailableReason, stopSandbox } from "../../shell/sandbox/sandbox.ts";
import { type SandboxPolicySettings, updatePermissionContext } from "../../tool/context.ts";
import type { ToolError } from "../../tool/errors.ts";
import { BashTool } from "./BashTool.ts";
import {
  APPROVED_BY_PERSON,
  callTool,
  createShellTestSession,
  type ShellTestSession,
} from "./testing/context.ts";

const opened: ShellTestSession[] = [];
beforeAll(async () => {
  await initBashParser();
});
afterEach(async () => {
  await stopSandbox();
  await Promise.all(opened.splice(0).map((session) => session.cleanup()));
});

async function sandboxed(
  settings: Partial<SandboxPolicySettings> = {},
  options: { mode?: "default" | "bypassPermissions"; allow?: string[]; deny?: string[] } = {},
): Promise<ShellTestSession> {
  const session = await createShellTestSession({
    ...(options.allow ? { allow: options.allow } : {}),
    ...(options.deny ? { deny: options.deny } : {}),
  });
  opened.push(session);
  session.context.setAppState((state) => ({
    ...state,
    toolPermissionContext: updatePermissionContext(state.toolPermissionContext, {
      mode: options.mode ?? "default",
      sandbox: { enabled: true, autoAllowBashIfSandboxed: true, ...settings },
    }),
  }));
  return session;
}

const bash = (session: ShellTestSession, input: Record<string, unknown>) =>
  callTool(BashTool, input, session.context);
const decide = async (session: ShellTestSession, input: Record<string, unknown>) =>
  decidePermission(BashTool, input as never, session.context);

/** Outside the working directories and outside temp (which the sandbox lets commands write). */
const varTmp = join("/var/tmp", `keel-sandbox-settings-${process.pid}`);
mkdirSync(varTmp, { recursive: true });
afterAll(() => rmSync(varTmp, { recursive: true, force: true }));

const reason = sandboxUnavailableReason();
if (reason) console.warn(`Skipping the bubblewrap sandbox tests: ${reason}`);

describe.skipIf(reason !== undefined)("sandbox settings with bubblewrap", () => {
  it("excludedCommands run outside the sandbox, judged by the ordinary checks", async () => {
    const session = await sandboxed({ excludedCommands: ["touch"] });
    const escaped = join(varTmp, "touched");
    await bash(session, { command: `touch ${escaped}` });
    expect(existsSync(escaped)).toBe(true);
    const contained = join(varTmp, "written");
    const refused = await bash(session, { command: `echo no > ${contained}` });
    expect(refused.data.isError).toBe(true);
    expect(existsSync(contained)).toBe(false);
    // The sandbox no longer vouches for an excluded command: it asks like any file change.
    expect((await decide(session, { command: "touch made.txt" })).behavior).toBe("ask");
    expect((await decide(session, { command: "mkdir made" })).behavior).toBe("allow");
    expect((await decide(session, { command: "sudo touch made.txt" })).behavior).not.toBe("allow");
  });

  it("dangerouslyDisableSandbox always asks, even in bypass mode with an allow rule, and then runs unsandboxed", async () => {
    const session = await sandboxed({}, { mode: "bypassPermissions", allow: ["Bash"] });
    const target = join(varTmp, "unsandboxed");
    const input = { command: `echo yes > ${target}`, dangerouslyDisableSandbox: true };
    const decision = await decide(session, input);
    expect(decision.behavior).toBe("ask");
    expect(decision.decisionReason).toMatchObject({ type: "safetyCheck", check: "unsandboxed-command" });
    expect((await decide(session, { command: `echo yes > ${target}` })).behavior).toBe("allow");
    // Without a person's approval (a call made outside the pipeline) it stays in the sandbox.
    expect((await bash(session, input)).data.isError).toBe(true);
    expect(existsSync(target)).toBe(false);
    await callTool(BashTool, input, session.context, APPROVED_BY_PERSON);
    expect(readFileSync(target, "utf8")).toBe("yes\n");
  });

  it("allowUnsandboxedCommands: false refuses dangerouslyDisableSandbox, and a deny rule still denies", async () => {
    const session = await sandboxed({ allowUnsandboxedCommands: false }, { mode: "bypassPermissions" });
    const target = join(varTmp, "never");
    const input = { command: `echo no > ${target}`, dangerouslyDisableSandbox: true };
    const decision = await decide(session, input);
    expect(decision.behavior).toBe("deny");
    expect(decision.message).toContain("allowUnsandboxedCommands is false");
    const error = await bash(session, input).catch((caught: unknown) => caught);
    expect((error as ToolError).code).toBe("not_allowed");
    expect(existsSync(target)).toBe(false);
    const denied = await sandboxed({}, { deny: ["Bash(rm:*)"] });
    expect((await decide(denied, { command: "rm x", dangerouslyDisableSandbox: true })).behavior).toBe(
      "deny",
    );
  });

  describe("network.allowedDomains", () => {
    let server: Server;
    let port: number;
    beforeAll(async () => {
      server = createServer((_request, response) => response.end("hello from the host"));
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      port = (server.address() as { port: number }).port;
    });
    afterAll(() => server.close());

    it("reaches only the listed hosts through the sandbox's proxy", async () => {
      // --noproxy "": localhost too goes through the proxy, which applies the allowed domains.
      const command = `curl --noproxy '' -fsS -m 10 http://localhost:${port}/`;
      // Commands start once the runtime's relay to the proxy listens (sandboxTemplates.ts WAIT_FOR_PROXY).
      const closed = await bash(await sandboxed(), { command });
      expect(closed.data.isError).toBe(true);
      expect(closed.text).toContain("403");
      await stopSandbox();
      const open = await bash(await sandboxed({ allowedDomains: ["localhost"] }), { command });
      expect(open.text).toBe("hello from the host");
    });
  });

  it("filesystem.allowWrite opens a folder outside the working directories; denyWrite closes one inside", async () => {
    const extra = join(varTmp, "allow-write");
    mkdirSync(extra);
    try {
      const closed = await sandboxed();
      expect((await bash(closed, { command: `echo x > ${extra}/a` })).data.isError).toBe(true);
      expect(existsSync(join(extra, "a"))).toBe(false);
      await stopSandbox();
      const session = await sandboxed({ allowWrite: [extra], denyWrite: [] });
      mkdirSync(join(session.root, "secrets"));
      session.context.setAppState((state) => ({
        ...state,
        toolPermissionContext: updatePermissionContext(state.toolPermissionContext, {
          sandbox: {
            enabled: true,
            autoAllowBashIfSandboxed: true,
            allowWrite: [extra],
            denyWrite: [join(session.root, "secrets")],
          },
        }),
      }));
      await bash(session, { command: `echo x > ${extra}/a` });
      expect(readFileSync(join(extra, "a"), "utf8")).toBe("x\n");
      const inside = await bash(session, { command: "echo y > secrets/b; echo z > open.txt" });
      expect(inside.data.isError).toBe(false);
      expect(existsSync(join(session.root, "secrets", "b"))).toBe(false);
      expect(readFileSync(join(session.root, "open.txt"), "utf8")).toBe("z\n");
    } finally {
      rmSync(extra, { recursive: true, force: true });
    }
  });
});

describe("sandbox settings from files", () => {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "keel-sandbox-settings-")));
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it("merge their lists across files, resolve paths per file, and take single values from the highest", () => {
    const project = join(base, "project");
    const home = join(base, "home");
    mkdirSync(join(project, ".claude"), { recursive: true });
    mkdirSync(join(home, ".claude"), { recursive: true });
    writeFileSync(
      join(project, ".claude", "settings.json"),
      JSON.stringify({
        sandbox: {
          enabled: true,
          allowUnsandboxedCommands: false,
          excludedCommands: ["docker"],
          network: { allowedDomains: ["github.com"] },
          filesystem: { allowWrite: ["./build", "/var/cache/x"], denyWrite: ["config"] },
        },
      }),
    );
    writeFileSync(
      join(home, ".claude", "settings.json"),
      JSON.stringify({
        sandbox: {
          allowUnsandboxedCommands: true,
          excludedCommands: ["podman"],
          network: { allowedDomains: ["registry.npmjs.org"] },
          filesystem: { allowWrite: ["~/.cache/tool"] },
        },
      }),
    );
    const env = { HOME: home, KEEL_HOME: home, KEEL_MANAGED_SETTINGS: join(base, "none.json") };
    expect(loadSettings({ cwd: project, env }).permissionContext.sandbox.enabled).toBe(false);
    const loaded = loadSettings({ cwd: project, env, cli: { trust: true }, confinement: true });
    const sandbox = loaded.permissionContext.sandbox;
    expect(sandbox).toEqual({
      enabled: true,
      autoAllowBashIfSandboxed: true,
      allowUnsandboxedCommands: false,
      excludedCommands: ["docker", "podman"],
      allowedDomains: ["github.com", "registry.npmjs.org"],
      allowWrite: [join(project, "build"), "/var/cache/x", join(home, ".cache", "tool")],
      denyWrite: [join(project, "config")],
      confinement: true,
    });
    const policy = sandboxPolicy(loaded.permissionContext);
    expect(policy.allowedDomains).toEqual(["github.com", "registry.npmjs.org"]);
    expect(policy.allowWrite).toContain(join(project, "build"));
    expect(policy.denyWrite).toContain(join(project, "config"));
  });
});

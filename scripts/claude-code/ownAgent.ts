// Issue #26, "Keel's own agent runs the hook installed for Claude Code": Keel reads Claude Code's
// settings, hooks included, and must skip its own guard entries there. The entry installed here runs a
// `keel` wrapper that notes every start in a marker file before it runs Keel's hook, so a spawn shows
// (and the entry still reads as `keel hook claude-code`, Keel's own: src/settings/keelGuardHook.ts).
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startAnthropicServer } from "../../src/agent/testing/anthropicServer.ts";
import { stopServers } from "../../src/cli/decisionServer/control.ts";
import {
  auditRecords,
  claudeEnv,
  claudeSession,
  KEEL,
  keel,
  makeWorld,
  resultOf,
  runKeel,
  toolCallScript,
  type World,
} from "./harness.ts";
import { check } from "./report.ts";

/** How many times the wrapper started (one line per start). */
function starts(marker: string): number {
  return existsSync(marker) ? readFileSync(marker, "utf8").split("\n").filter(Boolean).length : 0;
}

function isClaudeCodeRecord(record: Record<string, unknown>): boolean {
  return record.agent === "claude-code";
}

async function keelPrint(world: World, calls: ReadonlyArray<{ name: string; input: unknown }>) {
  const { script, results } = toolCallScript(calls);
  const server = await startAnthropicServer({ script });
  try {
    const run = await runKeel(
      world,
      ["-p", "Look around the project.", "--output-format", "json"],
      server.url,
    );
    return { run, results };
  } finally {
    await server.close();
  }
}

export async function ownAgentChecks(binary: string): Promise<void> {
  const world = makeWorld("keel-claude-code-own-");
  try {
    const marker = join(world.base, "hook-starts.txt");
    const bin = join(world.base, "bin");
    mkdirSync(bin);
    const wrapper = join(bin, "keel");
    writeFileSync(
      wrapper,
      `#!/bin/sh\necho "$$ $*" >> '${marker}'\nexec '${process.execPath}' '${KEEL}' "$@"\n`,
      { mode: 0o755 },
    );
    const install = keel(world, [
      "hook",
      "install",
      "claude-code",
      "--user",
      "--command",
      `${wrapper} hook claude-code`,
    ]);
    check(
      "keel hook install claude-code --user, through a wrapper that notes each start",
      install.status === 0,
      install.stdout + install.stderr,
    );

    // The wrapper is live: Claude Code's call starts it, and Keel records the call as Claude Code's.
    const readme = { name: "Read", input: { file_path: join(world.project, "README.md") } };
    const [seen] = await claudeSession(binary, world, [readme]);
    const claudeRecords = auditRecords(world).filter(isClaudeCodeRecord).length;
    check(
      "Claude Code's Read starts the installed hook (the wrapper noted it) and is recorded as claude-code",
      starts(marker) > 0 && claudeRecords > 0 && seen !== undefined && !seen.isError,
      `${starts(marker)} start(s), ${claudeRecords} claude-code record(s); ${seen?.text.slice(0, 80) ?? "no tool result"}`,
    );

    rmSync(marker, { force: true });
    const before = auditRecords(world).length;
    const { run, results } = await keelPrint(world, [
      readme,
      { name: "Bash", input: { command: "wc -l README.md" } },
    ]);
    const [read, bash] = [resultOf(results, 0), resultOf(results, 1)];
    check(
      "keel -p with the hook installed: its Read and Bash calls run",
      run.status === 0 &&
        read !== undefined &&
        !read.isError &&
        /keel demo/.test(read.text) &&
        bash !== undefined &&
        !bash.isError &&
        /3 README\.md/.test(bash.text),
      `exit ${run.status}; ${JSON.stringify(results).slice(0, 200)} ${run.stderr.slice(0, 200)}`,
    );
    const added = auditRecords(world).slice(before);
    const own = ["toolu_e2e_0", "toolu_e2e_1"].map((id) => added.find((record) => record.toolUseId === id));
    check(
      "keel -p: the audit log has Keel's own records of both calls and no claude-code record",
      own.every((record) => record !== undefined && record.agent === undefined) &&
        !added.some(isClaudeCodeRecord),
      JSON.stringify(
        added.map(({ tool, agent, behavior, decidedBy, hooks }) => ({
          tool,
          agent,
          behavior,
          decidedBy,
          hooks,
        })),
      ),
    );
    check(
      "keel -p: no `keel hook claude-code` process was started (the wrapper noted nothing), no hook ran",
      starts(marker) === 0 &&
        own.every((record) => Array.isArray(record?.hooks) && (record.hooks as unknown[]).length === 0),
      `${starts(marker)} start(s); hooks ${JSON.stringify(own.map((record) => record?.hooks))}`,
    );
  } finally {
    await stopServers(claudeEnv(world, "http://127.0.0.1:9"));
    if (!process.env.KEEL_E2E_KEEP) rmSync(world.base, { recursive: true, force: true });
    else process.stdout.write(`kept ${world.base}\n`);
  }
}

// Issue 31 item 4: `keel mcp` started by the system's older Node (bin/keel.js relaunches itself on the
// pinned Node 24) to its first tools/list answer, against Claude Code's `claude mcp serve` (the reference,
// measured in the same run, taking turns). Claude Code is installed from npm into a temp cache folder
// (scripts/claude-code/harness.ts), never into the project; the `claude` npm installs is a native binary,
// so it starts without Node.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { installClaudeCode } from "../scripts/claude-code/harness.ts";
import { summarize } from "./stats.ts";

export interface McpStartRow {
  name: string;
  medianMs: number;
  referenceName: string;
  referenceMs: number;
}

/** Spawn to the first tools/list answer, in ms. */
async function toToolList(command: string, args: string[], env: NodeJS.ProcessEnv, cwd: string) {
  const started = performance.now();
  const transport = new StdioClientTransport({
    command,
    args,
    env: env as Record<string, string>,
    cwd,
    stderr: "ignore",
  });
  const client = new Client({ name: "startup-bench", version: "1" });
  await client.connect(transport);
  const { tools } = await client.listTools();
  const ms = performance.now() - started;
  await client.close();
  if (tools.length === 0) throw new Error(`${command} ${args.join(" ")} listed no tools`);
  return ms;
}

/**
 * `oldNode bin/keel.js mcp` against `claude mcp serve`, `runs` starts each, alternating. Undefined (with
 * the reason) when Claude Code cannot be installed here.
 */
export async function measureMcpStart(options: {
  oldNode: string;
  launcher: string;
  project: string;
  env: NodeJS.ProcessEnv;
  runs: number;
}): Promise<McpStartRow | { skipped: string }> {
  let claude: string;
  try {
    claude = installClaudeCode();
  } catch (error) {
    return { skipped: `Claude Code could not be installed: ${(error as Error).message}` };
  }
  const { oldNode, launcher, project, env, runs } = options;
  const keel = () => toToolList(oldNode, [launcher, "mcp", "--cwd", project], env, project);
  const reference = () => toToolList(claude, ["mcp", "serve"], env, project);
  // One start of each first: Node writes its compile cache, Claude Code its first-run files.
  await keel();
  await reference();
  const keelTimes: number[] = [];
  const referenceTimes: number[] = [];
  for (let run = 0; run < runs; run++) {
    const [first, second] = run % 2 === 0 ? [keel, reference] : [reference, keel];
    const a = await first();
    const b = await second();
    keelTimes.push(first === keel ? a : b);
    referenceTimes.push(first === keel ? b : a);
  }
  return {
    name: "keel mcp to tools/list, started by the system Node",
    medianMs: summarize(keelTimes).median,
    referenceName: "claude mcp serve to tools/list",
    referenceMs: summarize(referenceTimes).median,
  };
}

// The one exemption from protected paths and the working-directory boundary: a sub-agent whose type
// keeps a memory (`memory: user|project|local`) reads and writes its own memory files without an
// approval. Exactly those: Markdown files inside that agent's own memory folder
// (`<base>/.keel/agent-memory[-local]/<agent>/`), no hidden name on the way, and no symlink anywhere
// from the memory root down to the file (a planted link must not turn the exemption toward other
// files). Every other write to `.keel`/`.claude` keeps asking. Deny and ask rules and plan mode still
// apply: the engine checks them before a tool's own allow.
import { dirname, join, relative, sep } from "node:path";
import { callPath, isPathWithin, resolveSymlinks } from "../../permissions/paths.ts";
import type { PermissionResult } from "../../permissions/types.ts";
import type { ToolUseContext } from "../../tool/context.ts";

/** `path` resolves to itself below `ancestor`: no component between them is a symlink. */
function noLinksBelow(ancestor: string, path: string): boolean {
  return resolveSymlinks(path) === join(resolveSymlinks(ancestor), relative(ancestor, path));
}

function isOwnMemoryFile(path: string, dir: string): boolean {
  if (path === dir || !isPathWithin(path, dir) || !path.endsWith(".md")) return false;
  const inside = path.slice(dir.length + 1).split(sep);
  if (inside.some((segment) => segment === "" || segment.startsWith("."))) return false;
  // The memory root is the folder holding `.keel` (or `.claude`): three levels above the agent's folder.
  const memoryRoot = dirname(dirname(dirname(dir)));
  return noLinksBelow(memoryRoot, path);
}

/** Allow, with who decided, when `absolutePath` is one of the calling agent's own memory files. */
export function agentMemoryAccess<I>(
  input: I,
  absolutePath: string,
  access: "read" | "write",
  context: ToolUseContext,
): PermissionResult<I> | undefined {
  const memory = context.agentMemory;
  if (!memory || context.agentId === undefined) return undefined;
  const path = callPath(absolutePath, context.getAppState());
  if (!isOwnMemoryFile(path, memory.dir)) return undefined;
  return {
    behavior: "allow",
    updatedInput: input,
    decisionReason: {
      type: "tool",
      reason: `agent memory: the ${memory.agentType} agent ${access === "write" ? "writes" : "reads"} its own memory file in ${memory.dir} (${memory.scope} scope)`,
      check: "agent-memory",
    },
  };
}

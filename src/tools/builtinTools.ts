// The built-in tools as one synchronous list, for the library (`builtinTools()`), the agent and tests:
// every tool's module loads with this file (awaited once, at import). A process that decides one call
// uses catalog.ts instead, and never imports this file (guard/leanPath.test.ts).
import type { Tool } from "../tool/Tool.ts";
import { loadAllBuiltinTools } from "./catalog.ts";

const TOOLS: readonly Tool[] = await loadAllBuiltinTools();

/** Every built-in tool, in the order tools/index.ts registers them (a new array each call). */
export function builtinTools(): Tool[] {
  return [...TOOLS];
}

// The built-in tools. Adding a tool = one new folder + one line here.
import type { Tool } from "../tool/Tool.ts";

export function builtinTools(): Tool[] {
  return [];
}

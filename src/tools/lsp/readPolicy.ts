// Results are governed like Read: a file that Read rules deny is left out of every result (the engine
// is asked, as for the file the call names), lines are shown only from files inside the working
// directories, and a hover is withheld when its symbol is defined in a denied file (the hover shows
// that file's declaration and docs).

import type { LanguageServer } from "../../lsp/languageServer.ts";
import { findDenyRule, hasDenyRuleNaming } from "../../permissions/engine.ts";
import { isInWorkingDirectories } from "../../permissions/paths.ts";
import type { ToolUseContext } from "../../tool/context.ts";
import type { Tool } from "../../tool/Tool.ts";
import type { FormatScope } from "./formatResults.ts";
import { type OperationRequest, type OperationResult, type Place, runOperation } from "./operations.ts";

/** The paths among these that the rules deny the tool to read. */
export async function deniedPaths(
  tool: Tool,
  input: Record<string, unknown>,
  paths: Iterable<string>,
  context: ToolUseContext,
): Promise<Set<string>> {
  const denied = new Set<string>();
  // Read deny rules are rare; without one no path needs asking about.
  if (!hasDenyRuleNaming(tool, context)) return denied;
  for (const path of new Set(paths))
    if (await findDenyRule(tool, { ...input, filePath: path }, context)) denied.add(path);
  return denied;
}

export function placesOf(result: OperationResult): Place[] {
  switch (result.kind) {
    case "locations":
      return result.places;
    case "symbols":
      return result.symbols.map((symbol) => symbol.place);
    case "calls":
      return result.calls.flatMap((call) => [call.place, ...call.callSites]);
    default:
      return result.place ? [result.place] : [];
  }
}

export function formatScope(context: ToolUseContext, denied: ReadonlySet<string>): FormatScope {
  const state = context.getAppState();
  return {
    cwd: state.cwd,
    isDenied: (path) => denied.has(path),
    mayShowLines: (path) =>
      !denied.has(path) && isInWorkingDirectories(path, state.toolPermissionContext, state.cwd),
  };
}

/** The hover, or a withheld one when the symbol is defined in a denied file (or that cannot be checked). */
export async function withoutDeniedHover(
  tool: Tool,
  input: Record<string, unknown>,
  result: OperationResult,
  server: LanguageServer,
  request: OperationRequest,
  context: ToolUseContext,
): Promise<OperationResult> {
  if (result.kind !== "hover" || result.text === "" || !hasDenyRuleNaming(tool, context)) return result;
  const definition = await runOperation(server, { ...request, operation: "goToDefinition" }).catch(
    () => undefined,
  );
  if (definition?.kind !== "locations") return { kind: "hover", text: "", withheld: true };
  const denied = await deniedPaths(
    tool,
    input,
    placesOf(definition).map((place) => place.path),
    context,
  );
  return denied.size === 0 ? result : { kind: "hover", text: "", withheld: true };
}

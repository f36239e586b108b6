// Elicitation requests from MCP servers Keel uses: the form goes to the session's prompter (the terminal,
// a library user's callback). Nobody to answer, a prompter that cannot show forms, a failure or a
// cancelled call: the request is declined at once, never left hanging.
import type { ElicitRequest, ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import type { ElicitationRequest, Prompter } from "../pipeline/services.ts";

/** Where a session's elicitations go; the prompter may be set after the servers connected. */
export interface ElicitationRoute {
  prompter?: Prompter | undefined;
  /** Problems answering, for people (a server's bad form, a failing prompter). */
  log?: (line: string) => void;
}

export async function answerElicitation(
  route: ElicitationRoute | undefined,
  serverName: string,
  params: ElicitRequest["params"],
  signal: AbortSignal,
): Promise<ElicitResult> {
  // Only form mode is declared; a URL-mode request (or a malformed form) is declined.
  if (params.mode === "url" || !("requestedSchema" in params) || !params.requestedSchema)
    return { action: "decline" };
  const prompter = route?.prompter;
  if (!prompter?.elicit || signal.aborted) return { action: "decline" };
  const request: ElicitationRequest = {
    serverName,
    message: params.message,
    requestedSchema: params.requestedSchema as ElicitationRequest["requestedSchema"],
    signal,
  };
  try {
    const answer = await prompter.elicit(request);
    if (signal.aborted) return { action: "cancel" };
    return answer;
  } catch (error) {
    route?.log?.(
      `MCP server "${serverName}" asked for input and it could not be answered: ${(error as Error).message}`,
    );
    return { action: "decline" };
  }
}

// What a session leaves in process-wide registries, released when it ends, so a long-lived process
// (the terminal UI, a library host) neither keeps its commands and language servers running nor its
// agents listed.
import { stopLanguageServers } from "../../lsp/sessionServers.ts";
import { killAllBackgroundTasks } from "../../shell/background.ts";
import { forgetAgents } from "../agent/runningAgents.ts";

/** Stops the session's background tasks (shells, background sub-agents) and language servers, then forgets its sub-agents. */
export async function releaseSession(sessionId: string): Promise<void> {
  await killAllBackgroundTasks(sessionId);
  await stopLanguageServers(sessionId);
  forgetAgents(sessionId);
}

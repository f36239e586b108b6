// What a session leaves in process-wide registries, released when it ends, so a long-lived process
// (the terminal UI, a library host) neither keeps its commands running nor its agents listed.
import { killAllBackgroundTasks } from "../../shell/background.ts";
import { forgetAgents } from "../agent/runningAgents.ts";

/** Stops the session's background tasks (shells and background sub-agents), then forgets its sub-agents. */
export async function releaseSession(sessionId: string): Promise<void> {
  await killAllBackgroundTasks(sessionId);
  forgetAgents(sessionId);
}

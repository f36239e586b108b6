// What a session leaves in process-wide registries (background commands, language servers, sub-agents)
// is released when it ends, so a long-lived process (the terminal UI, a library host) neither keeps its
// commands and servers running nor its agents listed. Each registry signs up here when its module
// loads: a registry never loaded holds nothing, and a one-call process does not load it just to find
// it empty (background shells alone pull in child_process, streams and crypto).

type Release = (sessionId: string) => Promise<void> | void;

const stops: Release[] = [];
const forgets: Release[] = [];

/** `stop` releases run first, one after another (tasks, then servers); `forget` ones after them. */
export function onSessionEnd(release: Release, phase: "stop" | "forget" = "stop"): void {
  (phase === "stop" ? stops : forgets).push(release);
}

/** Stops the session's background tasks and language servers, then forgets its sub-agents. */
export async function releaseSession(sessionId: string): Promise<void> {
  for (const release of stops) await release(sessionId);
  for (const release of forgets) await release(sessionId);
}

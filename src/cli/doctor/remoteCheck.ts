// `keel doctor` on remote agents: when a queue is configured (KEEL_REMOTE_QUEUE, agents.remote.queue),
// whether it is well formed and reachable within 3 s, and how many jobs wait in it. Nothing when none is.
import type { LoadedSettings } from "../../settings/load.ts";
import { errorMessage } from "../../tool/errors.ts";
import type { Finding } from "./checks.ts";

const TIMEOUT_MS = 3_000;

export async function checkRemoteQueue(settings: LoadedSettings, env: NodeJS.ProcessEnv): Promise<Finding[]> {
  const { resolveRemoteQueue } = await import("../../remote/config.ts");
  const resolved = resolveRemoteQueue(settings.remoteAgents, env);
  if (!resolved.ok)
    return resolved.configured
      ? [
          {
            area: "remote",
            status: "fail",
            summary: resolved.problem,
            fix: "Write the queue as redis://host:6379.",
          },
        ]
      : [];
  const { config } = resolved;
  const { closeRedis, connectRedis } = await import("../../remote/connection.ts");
  try {
    const redis = await connectRedis(config, { timeoutMs: TIMEOUT_MS, clientName: "keel-doctor" });
    try {
      const waiting = Number(await redis.llen(`bull:${config.name}:wait`).catch(() => 0));
      return [
        {
          area: "remote",
          status: "ok",
          summary: `remote-agent queue "${config.name}" at ${config.displayUrl} (${config.from}) answers; ${waiting} job${waiting === 1 ? "" : "s"} waiting for a worker`,
        },
      ];
    } finally {
      closeRedis(redis);
    }
  } catch (error) {
    return [
      {
        area: "remote",
        status: "fail",
        summary: errorMessage(error),
        fix: "Start Redis there (or fix the URL); remote agents cannot start until it answers.",
      },
    ];
  }
}

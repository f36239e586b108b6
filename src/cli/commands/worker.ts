// `keel worker`: this machine takes remote agent jobs (Agent with isolation "remote") from the queue and
// runs them, up to --concurrency at once, each in a git worktree of its own, under the stricter of the
// job's policy and this machine's managed settings. Runs until Ctrl-C / SIGTERM.
import { homedir, hostname } from "node:os";
import { join, resolve } from "node:path";
import { type Command, InvalidArgumentError } from "commander";
import { errorMessage } from "../../tool/errors.ts";
import { CliError } from "../exitCodes.ts";
import type { CliRuntime } from "../main.ts";

interface WorkerFlags {
  queue?: string;
  queueName?: string;
  concurrency: number;
  dir?: string;
  name?: string;
  maxRepos: number;
  lockSeconds: number;
  questionTimeout: number;
}

function positiveInteger(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0)
    throw new InvalidArgumentError("expected a positive whole number");
  return number;
}

/** `$XDG_CACHE_HOME/keel/worker`, else `~/.cache/keel/worker`: not under a `.keel` folder, whose paths are protected. */
export function defaultWorkerDir(env: NodeJS.ProcessEnv): string {
  const cache = env.XDG_CACHE_HOME?.trim() || join(env.HOME?.trim() || homedir(), ".cache");
  return join(cache, "keel", "worker");
}

const HELP = `
Setup, on each machine that runs agents:
  1. A Redis both sides reach (Debian: apt install redis-server; protect it with a password and TLS or a
     private network: whoever can write to the queue can run agents here, within this machine's policy).
  2. The queue: --queue redis://[:password@]host:6379[/db], or KEEL_REMOTE_QUEUE, or settings
     agents.remote.queue ("redis://..." or {"url": "redis://...", "name": "..."}). The queue name is
     keel-agents unless --queue-name, KEEL_REMOTE_QUEUE_NAME or the settings name another; the parent
     sessions must use the same URL and name.
  3. A model provider, as for \`keel run\`: ANTHROPIC_API_KEY or OPENAI_API_KEY, KEEL_PROVIDER,
     KEEL_BASE_URL (or provider/baseUrl in this machine's settings). The job names the model; its
     provider is used only where nothing here names one. Jobs never carry keys.
  4. Git access to the repositories (this user's git config, ssh keys or credential helper): the worker
     fetches the job's commit and pushes the agent's branch keel/<agent id> to the same remote.
     Commits are made with this user's git identity.

What it does with a job: fetches the repository into a cached clone (--dir/repos, at most --max-repos
kept, the least recently used removed), checks the commit out in a worktree of its own
(--dir/jobs/<job>, removed when the job ends; folders left by a killed worker are removed at start),
runs Keel's agent there with the governed tools under the stricter of the job's policy (the parent's
permission rules and mode) and this machine's managed settings (/etc/keel/managed-settings.json...;
their deny and ask rules, their mode if stricter, allowManagedPermissionRulesOnly, hooks), streams
progress, decisions and the report to the parent, commits what the agent left uncommitted, and pushes
the branch. Calls that need approval go to the parent session as questions (refused when it has nobody
to ask, or after --question-timeout). Its own audit log is ~/.keel/audit/ as usual.

A worker that dies mid-job: its job's lock expires after --lock-seconds and another worker takes the job
over from the start (once; a second loss fails it, and the parent is told).

Stop with Ctrl-C or SIGTERM: running jobs finish first; a second signal stops them (reported as stopped).`;

export function register(program: Command, runtime: CliRuntime): void {
  program
    .command("worker")
    .description('Take remote agent jobs (Agent with isolation "remote") from the queue and run them here')
    .option(
      "--queue <redis-url>",
      "the queue's Redis URL (env KEEL_REMOTE_QUEUE, settings agents.remote.queue)",
    )
    .option("--queue-name <name>", "the BullMQ queue name (default keel-agents; env KEEL_REMOTE_QUEUE_NAME)")
    .option("--concurrency <n>", "jobs run at once", positiveInteger, 2)
    .option(
      "--dir <folder>",
      "where clones and worktrees go (default $XDG_CACHE_HOME/keel/worker or ~/.cache/keel/worker)",
    )
    .option(
      "--name <name>",
      "this worker's name in reports and the parent's audit log (default: the host name)",
    )
    .option("--max-repos <n>", "cached clones kept", positiveInteger, 10)
    .option(
      "--lock-seconds <n>",
      "a job's lock without renewal; a killed worker's job moves on after about twice this",
      positiveInteger,
      30,
    )
    .option(
      "--question-timeout <seconds>",
      "how long a question waits for the parent's answer",
      positiveInteger,
      600,
    )
    .addHelpText("after", HELP)
    .action(async (flags: WorkerFlags) => {
      const env = process.env;
      const dir = resolve(flags.dir ?? defaultWorkerDir(env));
      const [{ loadSettings }, { resolveRemoteQueue }] = await Promise.all([
        import("../../settings/load.ts"),
        import("../../remote/config.ts"),
      ]);
      let settings: ReturnType<typeof loadSettings>;
      try {
        // This machine's managed and user settings; the folder holds no project settings of its own.
        settings = loadSettings({ cwd: dir, env });
      } catch (error) {
        throw new CliError(errorMessage(error));
      }
      for (const warning of settings.warnings) process.stderr.write(`keel: ${warning}\n`);
      const queueEnv = {
        ...env,
        ...(flags.queue ? { KEEL_REMOTE_QUEUE: flags.queue } : {}),
        ...(flags.queueName ? { KEEL_REMOTE_QUEUE_NAME: flags.queueName } : {}),
      };
      const resolved = resolveRemoteQueue(
        settings.remoteAgents,
        {
          ...queueEnv,
          // A --queue-name with the URL from settings names the queue too.
          ...(flags.queueName &&
          !queueEnv.KEEL_REMOTE_QUEUE &&
          typeof settings.remoteAgents.queue === "string"
            ? { KEEL_REMOTE_QUEUE: settings.remoteAgents.queue }
            : {}),
        },
        flags.queue ? "--queue" : "KEEL_REMOTE_QUEUE",
      );
      if (!resolved.ok)
        throw new CliError(
          resolved.configured
            ? resolved.problem
            : `${resolved.problem} (for this worker: --queue redis://host:6379)`,
        );
      const config = resolved.config;
      const name = flags.name ?? hostname();
      const log = (line: string) => process.stdout.write(`keel worker ${name}: ${line}\n`);
      // Connect before loading the agent's modules: a wrong URL is told at once.
      const { connectRedis } = await import("../../remote/connection.ts");
      let writer: Awaited<ReturnType<typeof connectRedis>>;
      try {
        writer = await connectRedis(config, { clientName: `keel-worker-${name}` });
      } catch (error) {
        throw new CliError(errorMessage(error));
      }
      const { startWorker } = await import("../../remote/worker/worker.ts");
      let worker: Awaited<ReturnType<typeof startWorker>>;
      try {
        worker = await startWorker({
          writer,
          config,
          name,
          concurrency: flags.concurrency,
          dir,
          maxRepos: flags.maxRepos,
          lockMs: flags.lockSeconds * 1000,
          questionTimeoutMs: flags.questionTimeout * 1000,
          settings,
          env,
          log,
        });
      } catch (error) {
        throw new CliError(errorMessage(error));
      }
      log(
        `taking agent jobs from queue "${config.name}" at ${config.displayUrl}, up to ${flags.concurrency} at once; worktrees in ${dir}`,
      );
      // The first Ctrl-C drains: no more jobs, the running ones finish however long they take. A second
      // Ctrl-C, SIGTERM or SIGHUP stops the running jobs now (their parents are told); the process then
      // exits as the signal says within the stop grace period (tool/stopSignals.ts).
      const { onInterruptSignal, onStopSignal, signalExitCode } = await import("../../tool/stopSignals.ts");
      let draining = false;
      const stopped = new Promise<void>((resolveStopped) => {
        const unwatchInterrupt = onInterruptSignal(() => {
          if (draining) return false;
          draining = true;
          log(
            worker.activeJobs > 0
              ? `stopping: waiting for ${worker.activeJobs} running job(s) to finish (Ctrl-C again to stop them now)`
              : "stopping",
          );
          void worker.close(false).then(resolveStopped);
          return true;
        });
        const unwatchStop = onStopSignal((signal) => {
          unwatchInterrupt();
          unwatchStop();
          if (worker.activeJobs > 0) log(`stopping ${worker.activeJobs} running job(s) now (${signal})`);
          else log(`stopping (${signal})`);
          void worker.close(true).then(resolveStopped);
        });
      });
      await stopped;
      // Stopped by a person (Ctrl-C) or a signal: ends as shells report a process a signal stopped.
      runtime.setExitCode(signalExitCode("SIGINT"));
    });
}

// Running one HTTP hook: the event JSON POSTed to the URL. A 2xx body is read like a command's stdout
// on exit 0; any other status, a refused connection or a timeout is a non-blocking error.
import type { HttpHook } from "./config.ts";
import type { RawHookRun } from "./output.ts";

const MAX_BODY = 1_000_000;

export interface HttpHookRun {
  hook: HttpHook;
  body: string;
  env: NodeJS.ProcessEnv;
  timeoutSeconds: number;
  signal: AbortSignal;
}

/** `$VAR` and `${VAR}` in header values, only for variables the hook lists in allowedEnvVars. */
export function interpolateHeader(value: string, allowed: readonly string[], env: NodeJS.ProcessEnv): string {
  return value.replace(
    /\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (whole, braced, bare) => {
      const name = (braced ?? bare) as string;
      return allowed.includes(name) ? (env[name] ?? "") : whole;
    },
  );
}

export async function runHttpHook(run: HttpHookRun): Promise<RawHookRun> {
  const started = performance.now();
  const timeout = AbortSignal.timeout(run.timeoutSeconds * 1000);
  const signal = AbortSignal.any([run.signal, timeout]);
  const base = { timeoutSeconds: run.timeoutSeconds, timedOut: false, aborted: false, stderr: "" };
  const headers: Record<string, string> = { "content-type": "application/json" };
  for (const [name, value] of Object.entries(run.hook.headers ?? {}))
    headers[name] = interpolateHeader(value, run.hook.allowedEnvVars ?? [], run.env);
  try {
    const response = await fetch(run.hook.url, {
      method: "POST",
      headers,
      body: run.body,
      signal,
      redirect: "error",
    });
    const text = (await response.text()).slice(0, MAX_BODY);
    const durationMs = Math.round(performance.now() - started);
    if (response.ok) return { ...base, exitCode: 0, stdout: text, durationMs };
    return {
      ...base,
      exitCode: 1,
      stdout: "",
      stderr: `HTTP ${response.status} ${response.statusText}\n${text}`,
      durationMs,
    };
  } catch (error) {
    const durationMs = Math.round(performance.now() - started);
    if (run.signal.aborted) return { ...base, exitCode: null, stdout: "", aborted: true, durationMs };
    if (timeout.aborted) return { ...base, exitCode: null, stdout: "", timedOut: true, durationMs };
    const cause = (error as { cause?: { message?: string } }).cause?.message;
    return {
      ...base,
      exitCode: null,
      stdout: "",
      startError: cause ? `${(error as Error).message}: ${cause}` : String(error),
      durationMs,
    };
  }
}

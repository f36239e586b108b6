// Whether this process started the OS sandbox's proxies, and how to stop them. A light module (no
// sandbox code): the command line stops them when its command is done, since they keep Node running.
let stopStarted: (() => Promise<void>) | undefined;

/** Called by the sandbox when it starts, with how to stop it. */
export function sandboxStarted(stop: () => Promise<void>): void {
  stopStarted = stop;
}

/** Called by the sandbox when it stops. */
export function sandboxStopped(): void {
  stopStarted = undefined;
}

/** Stops the sandbox's proxies if this process started them (the end of a `keel` command). */
export async function stopSandboxIfStarted(): Promise<void> {
  const stop = stopStarted;
  stopStarted = undefined;
  await stop?.();
}

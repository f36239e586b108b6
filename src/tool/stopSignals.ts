// How a `keel` command ends on SIGINT, SIGTERM and SIGHUP, one way for all three and every command:
// what runs is told to stop (the command's stop handlers abort its session: hooks, Bash calls, MCP calls
// and servers end their way), the command winds down, and the process exits with 128 + the signal's
// number (130, 143, 129), as shells report a process a signal stopped. It exits at the latest
// STOP_GRACE_MS after the signal, or at once on a second signal; whatever child still runs is killed on
// the way out (ownedProcesses.ts). A command may take SIGINT as an interrupt instead (`keel run`: the
// first Ctrl-C stops the turn, not the program; `keel worker`: it lets the running jobs finish). Only the command line installs these handlers: a
// library host keeps its own.
import { constants } from "node:os";
import { endOwnedProcesses, killOwnedProcesses } from "./ownedProcesses.ts";

export type StopSignal = "SIGINT" | "SIGTERM" | "SIGHUP";

export const STOP_SIGNALS: readonly StopSignal[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/** A stopped command exits within this long, whatever its tools or servers still hold. */
export const STOP_GRACE_MS = 5_000;

/** 130, 143 or 129. */
export function signalExitCode(signal: StopSignal): number {
  return 128 + constants.signals[signal];
}

type StopHandler = (signal: StopSignal) => void;
/** Returns true when it took the SIGINT as an interrupt (the command goes on). */
type InterruptHandler = () => boolean;

const stops = new Set<StopHandler>();
const interrupts = new Set<InterruptHandler>();
let received: StopSignal | undefined;
let receivedAt = 0;
let installed = false;

/** Called when a stop signal arrives, while registered. Returns the function that unregisters it. */
export function onStopSignal(stop: StopHandler): () => void {
  stops.add(stop);
  if (received) stop(received);
  return () => stops.delete(stop);
}

/** Offered each SIGINT before it stops the command; one that returns true keeps the command going. */
export function onInterruptSignal(interrupt: InterruptHandler): () => void {
  interrupts.add(interrupt);
  return () => interrupts.delete(interrupt);
}

/** The signal that stopped the command, once one has. */
export function stoppedBy(): StopSignal | undefined {
  return received;
}

/** Ends the process now as the stop signal says: 128 + its number, owned children killed. */
function exitNow(signal: StopSignal): never {
  killOwnedProcesses();
  process.exit(signalExitCode(signal));
}

/**
 * Ends the process as the stop signal says once the command has wound down: the processes it started
 * are given what is left of the grace period to end, then killed.
 */
export async function exitAfterStop(signal: StopSignal): Promise<never> {
  await endOwnedProcesses(Math.max(0, receivedAt + STOP_GRACE_MS - Date.now()));
  return exitNow(signal);
}

function handle(signal: StopSignal): void {
  if (received) exitNow(received);
  if (signal === "SIGINT") for (const interrupt of [...interrupts]) if (interrupt()) return;
  received = signal;
  receivedAt = Date.now();
  process.exitCode = signalExitCode(signal);
  // Nothing has said how to stop it (a command still starting, or one that starts nothing): end now.
  if (stops.size === 0) exitNow(signal);
  for (const stop of [...stops]) {
    try {
      stop(signal);
    } catch {
      // One handler failing must not keep the others from stopping what they own.
    }
  }
  setTimeout(() => exitNow(signal), STOP_GRACE_MS).unref();
}

/** Installs the handlers once; the command line calls it before it runs a command. */
export function installStopSignals(): void {
  if (installed) return;
  installed = true;
  for (const signal of STOP_SIGNALS) process.on(signal, handle);
}

// Standard input that was already read for this command (by the decision server's client, before it
// knew whether a server would answer), handed to the command that would otherwise read it. A global
// slot: the client (plain modules) and the command (the CLI bundle) are separate module graphs.
import type { GivenStdin } from "./protocol.ts";

const SLOT = Symbol.for("keel.givenStdin");

type Holder = { [SLOT]?: GivenStdin | undefined };

export function setGivenStdin(given: GivenStdin | undefined): void {
  (globalThis as Holder)[SLOT] = given;
}

export function givenStdin(): GivenStdin | undefined {
  return (globalThis as Holder)[SLOT];
}

// Redirects as path accesses: which operators read or write their target, and which targets are not
// files at all (/dev/null, the standard streams, a descriptor).
import type { CommandView } from "./commandView.ts";
import type { Redirect } from "./grammar/extractedCommand.ts";

export const HARMLESS_DEVICES = /^\/dev\/(null|stdin|stdout|stderr|tty|zero|random|urandom|fd\/[0-9]+)$/;
const WRITE_REDIRECTS = new Set([">", ">>", "&>", "&>>", ">|", "<>", ">&"]);
const READ_REDIRECTS = new Set(["<", "<&"]);

export function redirectAccess(redirect: Redirect): "read" | "write" | undefined {
  const target = redirect.target?.value ?? "";
  if (redirect.op === ">&" || redirect.op === "<&") {
    if (/^[0-9]+-?$|^-$/.test(target)) return undefined;
  }
  if (WRITE_REDIRECTS.has(redirect.op)) return "write";
  if (READ_REDIRECTS.has(redirect.op)) return "read";
  return undefined;
}

/** True when a redirect writes a real file (not /dev/null or a file descriptor). */
export function writesThroughRedirect(view: CommandView): boolean {
  return view.redirects.some(
    (redirect) =>
      redirectAccess(redirect) === "write" && !HARMLESS_DEVICES.test(redirect.target?.value ?? ""),
  );
}

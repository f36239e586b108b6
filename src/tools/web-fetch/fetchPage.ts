// Follows a URL to its content: same-host redirects up to a limit, a redirect to another host stops
// the walk and is reported, every hop is checked for private addresses.
import { ToolError } from "../../tool/errors.ts";
import { type HttpResponse, httpGet, REDIRECT_STATUSES } from "./httpGet.ts";
import { isPrivateHostLiteral } from "./privateAddress.ts";

export interface FetchLimits {
  maxBytes: number;
  maxRedirects: number;
  userAgent: string;
}

export type FetchOutcome =
  | { kind: "page"; url: string; finalUrl: string; response: HttpResponse; redirects: number }
  | { kind: "redirect"; url: string; redirectUrl: string; status: number; statusText: string };

export function bareHost(url: URL): string {
  return url.hostname
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "")
    .toLowerCase();
}

function siteKey(url: URL): string {
  return `${bareHost(url).replace(/^www\./, "")}:${url.port || "default"}`;
}

/** Same host (a `www.` prefix added or dropped is the same site), same port, and no https -> http downgrade. */
export function isSameSiteRedirect(from: URL, to: URL): boolean {
  if (from.protocol === "https:" && to.protocol === "http:") return false;
  return siteKey(from) === siteKey(to);
}

/** http is upgraded to https, except for this machine and private IP literals (no certificate there). */
export function upgradeToHttps(url: URL): URL {
  if (url.protocol !== "http:" || isPrivateHostLiteral(url.hostname)) return url;
  const upgraded = new URL(url);
  upgraded.protocol = "https:";
  return upgraded;
}

export async function fetchPage(
  start: URL,
  limits: FetchLimits,
  signal: AbortSignal,
  allowPrivate: (host: string) => Promise<boolean>,
): Promise<FetchOutcome> {
  let current = start;
  for (let redirects = 0; ; redirects++) {
    const host = bareHost(current);
    const mayBePrivate = await allowPrivate(host);
    if (!mayBePrivate && isPrivateHostLiteral(host)) throw privateAddressRefusal(host, host);
    const response = await httpGet(current, {
      signal,
      maxBytes: limits.maxBytes,
      allowPrivate: mayBePrivate,
      headers: {
        "user-agent": limits.userAgent,
        accept: "text/markdown, text/html;q=0.9, text/plain;q=0.8, application/xhtml+xml, */*;q=0.5",
        "accept-encoding": "gzip, deflate, br",
      },
    });
    const location = response.headers.location;
    if (!REDIRECT_STATUSES.has(response.status) || !location)
      return { kind: "page", url: start.href, finalUrl: current.href, response, redirects };
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      throw new ToolError("fetch_failed", `${current.href} redirected to an invalid URL: ${location}`);
    }
    if (next.protocol !== "http:" && next.protocol !== "https:")
      throw new ToolError(
        "fetch_failed",
        `${current.href} redirected to a ${next.protocol} URL, which WebFetch does not follow.`,
      );
    if (!isSameSiteRedirect(current, next))
      return {
        kind: "redirect",
        url: start.href,
        redirectUrl: next.href,
        status: response.status,
        statusText: response.statusText,
      };
    if (redirects + 1 > limits.maxRedirects)
      throw new ToolError(
        "fetch_failed",
        `${start.href} redirected more than ${limits.maxRedirects} times (last: ${next.href}). The page may be in a redirect loop; try the final URL directly or another source.`,
      );
    current = next;
  }
}

export function privateAddressRefusal(host: string, address: string): ToolError {
  const where = host === address ? host : `${host} (${address})`;
  return new ToolError(
    "private_address",
    `WebFetch does not fetch from this machine or private networks: ${where} is a local or private address. If the user wants this, they can allow the host with the permission rule WebFetch(domain:${host}).`,
  );
}

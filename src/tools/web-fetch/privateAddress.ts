// Addresses WebFetch must not reach without a rule naming the host: loopback, private, link-local,
// unspecified, multicast, reserved, and IPv6 forms that embed such an IPv4 address.
import { isIPv4, isIPv6 } from "node:net";

function ipv4ToNumber(address: string): number {
  return address.split(".").reduce((value, part) => value * 256 + Number(part), 0);
}

/** [network, prefix length] pairs of IPv4 space that is not the public internet. */
const IPV4_BLOCKED: ReadonlyArray<[string, number]> = [
  ["0.0.0.0", 8], // "this network", includes 0.0.0.0
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, cloud metadata services
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, includes 255.255.255.255
];

function inIPv4Block(value: number, [network, prefix]: [string, number]): boolean {
  const size = 2 ** (32 - prefix);
  const start = ipv4ToNumber(network);
  return value >= start && value < start + size;
}

export function isPrivateIPv4(address: string): boolean {
  const value = ipv4ToNumber(address);
  return IPV4_BLOCKED.some((block) => inIPv4Block(value, block));
}

/** Eight 16-bit groups, or undefined. Accepts `::` shortening, a trailing dotted IPv4 and a zone id. */
export function parseIPv6(text: string): number[] | undefined {
  const address = text.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  if (!isIPv6(address)) return undefined;
  let head = address;
  const tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (dotted) {
    const v4 = ipv4ToNumber(dotted[1]!);
    tail.push(Math.floor(v4 / 65536), v4 % 65536);
    head = address.slice(0, -dotted[1]!.length);
    if (head.endsWith(":") && !head.endsWith("::")) head = head.slice(0, -1);
  }
  const groups = (part: string) =>
    part === "" ? [] : part.split(":").map((group) => Number.parseInt(group, 16));
  const [left, right] = head.split("::") as [string, string | undefined];
  const leftGroups = groups(left);
  const rightGroups = [...groups(right ?? ""), ...tail];
  const missing = 8 - leftGroups.length - rightGroups.length;
  const all =
    right === undefined
      ? [...leftGroups, ...tail]
      : [...leftGroups, ...Array(missing).fill(0), ...rightGroups];
  return all.length === 8 ? all : undefined;
}

function embeddedIPv4(high: number, low: number): string {
  return [high >> 8, high & 255, low >> 8, low & 255].join(".");
}

export function isPrivateIPv6(address: string): boolean {
  const g = parseIPv6(address);
  if (!g) return true; // cannot read it: refuse
  const zeros = (from: number, to: number) => g.slice(from, to).every((group) => group === 0);
  if (zeros(0, 8)) return true; // ::
  if (zeros(0, 7) && g[7] === 1) return true; // ::1
  if (zeros(0, 5) && g[5] === 0xffff) return isPrivateIPv4(embeddedIPv4(g[6]!, g[7]!)); // IPv4-mapped
  if (zeros(0, 6)) return true; // IPv4-compatible (deprecated): never a public destination
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return isPrivateIPv4(embeddedIPv4(g[6]!, g[7]!)); // NAT64
  if (g[0] === 0x2002) return isPrivateIPv4(embeddedIPv4(g[1]!, g[2]!)); // 6to4
  const first = g[0]!;
  if ((first & 0xfe00) === 0xfc00) return true; // fc00::/7 unique local
  if ((first & 0xffc0) === 0xfe80) return true; // fe80::/10 link-local
  if ((first & 0xffc0) === 0xfec0) return true; // fec0::/10 site-local (deprecated)
  if ((first & 0xff00) === 0xff00) return true; // multicast
  if (first === 0x2001 && g[1] === 0x0db8) return true; // documentation
  if (first === 0x2001 && g[1] === 0) return true; // Teredo: hides an IPv4 address
  if (first === 0x0100 && zeros(1, 4)) return true; // discard prefix
  return false;
}

/** True for an address that is not on the public internet (or that cannot be read). */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, "");
  if (isIPv4(bare)) return isPrivateIPv4(bare);
  if (isIPv6(bare.replace(/%.*$/, ""))) return isPrivateIPv6(bare);
  return true;
}

/** Host names that always mean this machine, whatever DNS says. */
export function isLocalHostName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, "");
  return name === "localhost" || name.endsWith(".localhost") || name === "localhost.localdomain";
}

/** A host given as an IP literal or a local name that points at a non-public address. */
export function isPrivateHostLiteral(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "");
  if (isLocalHostName(bare)) return true;
  if (isIPv4(bare) || isIPv6(bare.replace(/%.*$/, ""))) return isPrivateAddress(bare);
  return false;
}

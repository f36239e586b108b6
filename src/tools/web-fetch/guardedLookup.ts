// DNS resolution that checks every address a name resolves to, at connect time, so a name that points
// (or is re-pointed) at a private address is refused, not just names that look private.
import { lookup } from "node:dns";
import type { LookupFunction } from "node:net";
import { isPrivateAddress } from "./privateAddress.ts";

export class PrivateAddressError extends Error {
  readonly host: string;
  readonly address: string;
  constructor(host: string, address: string) {
    super(`${host} resolves to ${address}, a local or private network address`);
    this.name = "PrivateAddressError";
    this.host = host;
    this.address = address;
  }
}

/** A `lookup` for http.request: resolves all addresses, refuses if any is private (unless allowed). */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { all: true, family: options.family ?? 0 }, (error, addresses) => {
      if (error) return callback(error, "");
      const blocked = allowPrivate ? undefined : addresses.find((entry) => isPrivateAddress(entry.address));
      if (blocked) return callback(new PrivateAddressError(hostname, blocked.address), "");
      if (addresses.length === 0)
        return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), "");
      if (options.all) return callback(null, addresses);
      const first = addresses[0]!;
      return callback(null, first.address, first.family);
    });
  };
}

import { describe, expect, it } from "vitest";
import { isPrivateAddress, isPrivateHostLiteral, parseIPv6 } from "./privateAddress.ts";

describe("isPrivateAddress", () => {
  const blocked = [
    "0.0.0.0",
    "0.1.2.3",
    "10.0.0.1",
    "100.64.0.1",
    "127.0.0.1",
    "127.255.255.254",
    "169.254.169.254",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "198.18.0.1",
    "224.0.0.1",
    "255.255.255.255",
    "::",
    "::1",
    "[::1]",
    "0:0:0:0:0:0:0:1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:10.1.2.3",
    "::ffff:169.254.169.254",
    "::127.0.0.1",
    "64:ff9b::a9fe:a9fe",
    "2002:7f00:1::",
    "fc00::1",
    "fd12:3456::1",
    "fe80::1",
    "fe80::1%eth0",
    "ff02::1",
    "2001:db8::1",
    "not an address",
  ];
  const allowed = [
    "8.8.8.8",
    "1.1.1.1",
    "93.184.216.34",
    "172.32.0.1",
    "172.15.255.255",
    "100.128.0.1",
    "169.255.0.1",
    "192.169.0.1",
    "2606:4700:4700::1111",
    "2a00:1450:4001:82a::200e",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "2002:808:808::",
  ];
  it.each(blocked)("refuses %s", (address) => expect(isPrivateAddress(address)).toBe(true));
  it.each(allowed)("lets %s through", (address) => expect(isPrivateAddress(address)).toBe(false));
});

describe("parseIPv6", () => {
  it.each([
    ["::1", [0, 0, 0, 0, 0, 0, 0, 1]],
    ["fe80::", [0xfe80, 0, 0, 0, 0, 0, 0, 0]],
    ["::ffff:1.2.3.4", [0, 0, 0, 0, 0, 0xffff, 0x0102, 0x0304]],
    ["1:2:3:4:5:6:7:8", [1, 2, 3, 4, 5, 6, 7, 8]],
    ["1::8", [1, 0, 0, 0, 0, 0, 0, 8]],
  ])("reads %s", (text, groups) => expect(parseIPv6(text)).toEqual(groups));
});

describe("isPrivateHostLiteral", () => {
  it.each([
    ["localhost", true],
    ["LOCALHOST.", true],
    ["app.localhost", true],
    ["127.0.0.1", true],
    ["[::1]", true],
    ["example.com", false],
    ["localhost.example.com", false],
    ["8.8.8.8", false],
  ])("%s -> %s", (host, expected) => expect(isPrivateHostLiteral(host)).toBe(expected));
});

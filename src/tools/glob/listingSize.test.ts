import { describe, expect, it } from "vitest";
import { bufferingArgs, rememberListingSize, remembersLargeListing } from "./listingSize.ts";

describe("rg's buffering by the last listing of the same search", () => {
  it("is rg's default until a listing is known, line by line for small ones, default for large ones", () => {
    expect(bufferingArgs("/a\0.\0**/*.ts")).toEqual([]);
    expect(remembersLargeListing("/a\0.\0**/*.ts")).toBe(false);
    rememberListingSize("/a\0.\0**/*.ts", 400);
    expect(bufferingArgs("/a\0.\0**/*.ts")).toEqual(["--line-buffered"]);
    expect(remembersLargeListing("/a\0.\0**/*.ts")).toBe(false);
    rememberListingSize("/a\0.\0**/*.ts", 200_000);
    expect(bufferingArgs("/a\0.\0**/*.ts")).toEqual([]);
    expect(remembersLargeListing("/a\0.\0**/*.ts")).toBe(true);
    // Another pattern in the same folder is its own search.
    expect(bufferingArgs("/a\0.\0**/*")).toEqual([]);
  });

  it("remembers a bounded number of searches, forgetting the oldest", () => {
    for (let i = 0; i < 300; i++) rememberListingSize(`/b${i}`, 10);
    expect(bufferingArgs("/b0")).toEqual([]);
    expect(bufferingArgs("/b299")).toEqual(["--line-buffered"]);
  });
});

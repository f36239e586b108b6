// The queue plumbing against a real redis-server: a bounded connect with a clear error, and the job's
// streams (in order, bounded, oversized entries cut, entries that are not ours skipped).
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appendEvent, MAX_ENTRY_CHARS, readStream, streamKeys, WorkerEventSchema } from "./channel.ts";
import { closeRedis, connectRedis, QueueUnreachableError } from "./connection.ts";
import { freePort, redisServerMissing, startRedis, type TestRedis } from "./testing/redisServer.ts";

const missing = redisServerMissing();

describe.skipIf(missing !== undefined)(`the queue's Redis (${missing ?? "redis-server"})`, () => {
  let server: TestRedis;
  let redis: Redis;
  beforeAll(async () => {
    server = await startRedis();
    redis = await connectRedis({ url: server.url, displayUrl: server.url, from: "test" });
  });
  afterAll(async () => {
    closeRedis(redis);
    await server?.stop();
  });

  it("refuses a port nothing listens on, at once and by name", async () => {
    const port = await freePort();
    const url = `redis://:pw-123456@127.0.0.1:${port}`;
    const error = await connectRedis({
      url,
      displayUrl: `redis://:***@127.0.0.1:${port}`,
      from: "KEEL_REMOTE_QUEUE",
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(QueueUnreachableError);
    expect((error as Error).message).toBe(
      `Could not reach the remote-agent queue at redis://:***@127.0.0.1:${port} (KEEL_REMOTE_QUEUE): connection refused (nothing listens on that port). Check that Redis runs there and that the URL is right.`,
    );
  });

  it("a Redis that wants another password: said so", async () => {
    await redis.call("CONFIG", "SET", "requirepass", "right-password");
    try {
      const url = server.url.replace("redis://", "redis://:wrong-password@");
      const error = await connectRedis({ url, displayUrl: server.url, from: "test" }).catch(
        (caught: unknown) => caught,
      );
      expect((error as Error).message).toContain("Redis refused the password");
      expect((error as Error).message).not.toContain("wrong-password");
    } finally {
      await redis.call("AUTH", "right-password");
      await redis.call("CONFIG", "SET", "requirepass", "");
    }
  });

  it("events come back in order, oversized ones cut, foreign entries skipped", async () => {
    const keys = streamKeys("q", "agent_0000cccc");
    await appendEvent(redis, keys.events, { type: "progress", runId: "r", text: "one" });
    await redis.call("XADD", keys.events, "*", "e", "not json");
    await appendEvent(redis, keys.events, {
      type: "progress",
      runId: "r",
      text: "x".repeat(MAX_ENTRY_CHARS * 2),
    });
    await appendEvent(redis, keys.events, { type: "heartbeat", runId: "r" });
    const reader = redis.duplicate();
    await reader.connect();
    try {
      const read = await readStream(reader, keys.events, "0", 100, WorkerEventSchema);
      expect(read.entries.map((entry) => entry.event.type)).toEqual(["progress", "progress", "heartbeat"]);
      const cut = read.entries[1]!.event as { text: string };
      expect(cut.text.length).toBeLessThan(MAX_ENTRY_CHARS);
      expect(cut.text).toContain(`[cut: ${MAX_ENTRY_CHARS * 2} characters]`);
      // Nothing new: the read waits its time and returns empty, from where it was.
      const again = await readStream(reader, keys.events, read.lastId, 50, WorkerEventSchema);
      expect(again).toEqual({ entries: [], lastId: read.lastId });
      expect(Number(await redis.ttl(keys.events))).toBeGreaterThan(0);
    } finally {
      closeRedis(reader);
    }
  });
});

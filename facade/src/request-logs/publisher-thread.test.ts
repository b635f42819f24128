import { describe, expect, it } from "vitest";
import { threadModule } from "../../../proto/runtime/supervised-thread.ts";
import { packagesLoadedBy } from "../../../test/support/thread-imports.ts";
import type { PublisherThreadData } from "./publisher-thread.ts";

describe("the request-log publisher thread", () => {
  it("loads the NATS client and nothing heavy it does not use (no zod: the key digest is apart from the contract's schemas)", async () => {
    const data: PublisherThreadData = {
      config: { subject: "x", batchSize: 10, flushMs: 100, maxEntries: 10, bodyCapBytes: 100, threadHeapMb: 32, threadNice: 0, handoffBatch: 1, handoffMs: 1 },
      // Nothing listens there: the thread keeps trying, which is all this test needs of it.
      natsUrl: "nats://127.0.0.1:9",
    };
    const packages = await packagesLoadedBy(threadModule(import.meta.url, "publisher-thread"), data);
    expect(packages).toContain("@nats-io/transport-node");
    expect(packages).not.toContain("zod");
    expect(packages.filter((p) => /^(kysely|pg|@mikro-orm\/|koa|@grpc\/)/.test(p))).toEqual([]);
  });
});

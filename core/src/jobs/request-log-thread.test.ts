import { describe, expect, it } from "vitest";
import { threadModule } from "../../../proto/runtime/supervised-thread.ts";
import { packagesLoadedBy } from "../../../test/support/thread-imports.ts";
import type { WriterThreadData } from "./request-log-writer.ts";

describe("the request-log writer thread", () => {
  it("loads pg, the NATS client and the contract's zod, but not Kysely or the ORM", async () => {
    const data: WriterThreadData = {
      // Nothing listens there: the thread keeps trying, which is all this test needs of it.
      natsUrl: "nats://127.0.0.1:9",
      subject: "x",
      databaseUrl: "postgres://nobody@127.0.0.1:9/none",
      connectTimeoutMs: 1_000,
      nice: 0,
    };
    const packages = await packagesLoadedBy(threadModule(import.meta.url, "request-log-thread"), data);
    expect(packages).toEqual(expect.arrayContaining(["pg", "@nats-io/transport-node", "zod"]));
    expect(packages.filter((p) => /^(kysely|@mikro-orm\/|@grpc\/|@trpc\/)/.test(p))).toEqual([]);
  });
});

// The outbox relay with a private nats-server (this file stops and starts it): two cores relaying
// together publish each event once, events written while NATS is down arrive once it is back,
// and the event stream gets its bounded max_age even when it already existed without one.

import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { connect as tcpConnect } from "node:net";
import { freePort } from "../core/src/devstack/free-port.ts";
import { startChild, type Child } from "../core/src/devstack/processes.ts";
import { findExecutable } from "../core/src/devstack/system-packages.ts";
import { EVENT_STREAM, EVENT_STREAM_MAX_AGE_MS, EVENT_SUBJECT_PREFIX } from "../proto/event-stream.ts";
import { eventually } from "./support/eventually.ts";
import { createOk, useStack } from "./support/expect.ts";
import type { HttpClient } from "./support/http.ts";

let natsHome: string;
let natsPort: number;
let nats: Child | undefined;
const natsUrl = () => `nats://127.0.0.1:${natsPort}`;

/** nats-server with JetStream on the same port and store each time, so a restart is the same server to its clients. */
async function startNats(): Promise<Child> {
  const bin = findExecutable("nats-server", ["/usr/bin", "/usr/sbin", "/usr/local/bin"]);
  if (!bin) throw new Error("nats-server not found");
  const child = startChild("nats", bin, ["-js", "-sd", natsHome, "-a", "127.0.0.1", "-p", String(natsPort)], {
    output: { logFile: path.join(natsHome, "nats.log") },
  });
  await eventually(
    () =>
      new Promise<true | undefined>((resolve) => {
        const socket = tcpConnect({ host: "127.0.0.1", port: natsPort }, () => resolve(true));
        socket.once("data", () => socket.destroy());
        socket.once("connect", () => socket.destroy());
        socket.once("error", () => resolve(undefined));
      }),
    30_000,
    "nats-server to listen",
  );
  return child;
}
const env: Record<string, string> = { OUTBOX_RELAY_INTERVAL: "100ms", OUTBOX_RELAY_LEASE: "2s" };

// Runs before useStack's beforeAll (registration order): the stack starts against this server.
beforeAll(async () => {
  natsHome = fs.mkdtempSync(path.join(os.tmpdir(), "paytami-relay-nats-"));
  natsPort = await freePort();
  nats = await startNats();
  env.NATS_URL = natsUrl();
  // A stream as an earlier version made it, without max_age: the core must update it.
  const nc = await connect({ servers: natsUrl() });
  await (await jetstreamManager(nc)).streams.add({ name: EVENT_STREAM, subjects: [`${EVENT_SUBJECT_PREFIX}.>`] });
  await nc.drain();
});

const stack = useStack({ env, allow503: true });

afterAll(async () => {
  await nats?.stop();
  fs.rmSync(natsHome, { recursive: true, force: true });
});

async function withNats<T>(work: (nc: NatsConnection) => Promise<T>): Promise<T> {
  const nc = await connect({ servers: natsUrl() });
  try {
    return await work(nc);
  } finally {
    await nc.drain();
  }
}

/** msgID → how many times it is in the stream. */
async function streamCounts(): Promise<Map<string, number>> {
  return withNats(async (nc) => {
    const counts = new Map<string, number>();
    const info = await (await jetstreamManager(nc)).streams.info(EVENT_STREAM);
    if (info.state.messages === 0) return counts;
    const consumer = await jetstream(nc).consumers.get(EVENT_STREAM);
    let seen = 0;
    while (seen < info.state.messages) {
      const batch = await consumer.fetch({ max_messages: 500, expires: 2_000 });
      let got = 0;
      for await (const msg of batch) {
        const id = msg.json<{ id: string }>().id;
        counts.set(id, (counts.get(id) ?? 0) + 1);
        got++;
      }
      if (got === 0) break;
      seen += got;
    }
    return counts;
  });
}

async function outboxRows(): Promise<Array<{ id: string; published: boolean; claimed: boolean }>> {
  return stack().sql(
    "select e.id, p.seq is null as published, p.claimed_until is not null as claimed from outbox_events e left join outbox_pending p on p.seq = e.seq order by e.seq",
  );
}

async function waitUntilAllPublished(expected: number): Promise<void> {
  await eventually(
    async () => {
      const rows = await outboxRows();
      return rows.length === expected && rows.every((r) => r.published) ? true : undefined;
    },
    60_000,
    `the outbox's ${expected} events to be relayed`,
  );
}

/** paytami_core_job_items_total{job_name="outbox_relay",outcome="published"} summed over every core. */
async function publishedByCores(): Promise<number> {
  let total = 0;
  for (const url of stack().coreHttpUrls()) {
    const text = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${stack().internalToken}` } })).text();
    const line = text
      .split("\n")
      .find((l) => l.startsWith("paytami_core_job_items_total") && l.includes('job_name="outbox_relay"') && l.includes('outcome="published"'));
    total += line ? Number(line.split(" ").at(-1)) : 0;
  }
  return total;
}

async function capturedPayments(clients: HttpClient[], key: string, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = (await createOk(clients[i % clients.length]!, key)).id;
    await stack().admin.simulate(id, "succeed");
    ids.push(id);
  }
  return ids;
}

describe("outbox relay", () => {
  let key: string;
  beforeAll(async () => {
    key = (await stack().admin.createMerchant({ name: "Relay S.A." })).testApiKey;
  });

  test("the core brings an existing event stream to the bounded max_age", async () => {
    const config = await withNats(async (nc) => (await (await jetstreamManager(nc)).streams.info(EVENT_STREAM)).config);
    expect(config.max_age).toBe(EVENT_STREAM_MAX_AGE_MS * 1_000_000);
  });

  test("two cores relaying together publish each event once", async () => {
    const second = await stack().addInstance();
    expect(stack().coreHttpUrls()).toHaveLength(2);
    const ids = await capturedPayments([stack().http, second], key, 80);
    await waitUntilAllPublished(ids.length);
    // A core counts what it published just after marking the rows, so its count may trail them.
    const published = await eventually(
      async () => {
        const n = await publishedByCores();
        return n >= ids.length ? n : undefined;
      },
      30_000,
      "the cores' relay counters to account for every event",
    );
    // Each row was published by exactly one core (no lease ran out, nothing was sent twice)…
    expect(published).toBe(ids.length);
    // …and the stream holds each event once, under its own id.
    const counts = await streamCounts();
    const rows = await outboxRows();
    expect(rows.map((r) => counts.get(r.id))).toEqual(rows.map(() => 1));
    expect(counts.size).toBe(rows.length);
  });

  test("events written while NATS is down are published once it is back", { timeout: 120_000 }, async () => {
    const before = (await outboxRows()).length;
    await nats!.stop();
    const ids = await capturedPayments([stack().http], key, 10);
    // Committed with their changes, waiting in the outbox.
    const waiting = (await outboxRows()).slice(before);
    expect(waiting).toHaveLength(ids.length);
    expect(waiting.every((r) => !r.published)).toBe(true);
    // A relay pass takes them (leases them) and cannot publish them to the stopped server: they stay
    // unpublished. Checked once a pass has taken them; before that it would prove nothing.
    const tried = await eventually(
      async () => {
        const rows = (await outboxRows()).slice(before);
        return rows.every((r) => r.claimed) ? rows : undefined;
      },
      30_000,
      "a relay pass to claim the waiting events",
    );
    expect(tried.every((r) => !r.published)).toBe(true);

    nats = await startNats(); // same port and JetStream store
    await waitUntilAllPublished(before + ids.length);
    const counts = await streamCounts();
    for (const row of waiting) expect(counts.get(row.id), row.id).toBe(1);
    expect(counts.size).toBe(before + ids.length);
  });
});

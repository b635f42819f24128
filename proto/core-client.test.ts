import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { CoreClient } from "./core-client.ts";
import { ERROR_CODE_METADATA_KEY } from "./error-catalog.ts";
import { GetPaymentResponse } from "./gen/paytami/v1/payment.ts";

// The core client against a hand-written gRPC server (node:http2), so a test decides when the
// trailers go out: the client must answer from the response message without waiting for them.

/** One gRPC length-prefixed message. */
const framed = (message: Uint8Array) => {
  const head = Buffer.alloc(5);
  head.writeUInt32BE(message.length, 1);
  return Buffer.concat([head, message]);
};

const PAYMENT = GetPaymentResponse.encode({ json: Buffer.from('{"id":"pay_held"}') }).finish();

type Behaviour = "message, trailers held" | "message, then an error status" | "trailers only, catalog error" | "trailers only, OK";

let server: http2.Http2Server;
let address: string;
let behaviour: Behaviour;
/** Releases the held trailers of the calls in flight. */
const held: Array<() => void> = [];

beforeAll(async () => {
  server = http2.createServer();
  server.on("stream", (stream) => {
    stream.on("data", () => {});
    stream.on("end", () => {
      if (behaviour === "trailers only, catalog error") {
        stream.respond(
          {
            ":status": 200,
            "content-type": "application/grpc",
            "grpc-status": "5",
            "grpc-message": "no such payment",
            [ERROR_CODE_METADATA_KEY]: "unknown_payment",
          },
          { endStream: true },
        );
        return;
      }
      if (behaviour === "trailers only, OK") {
        stream.respond({ ":status": 200, "content-type": "application/grpc", "grpc-status": "0" }, { endStream: true });
        return;
      }
      stream.respond({ ":status": 200, "content-type": "application/grpc" }, { waitForTrailers: true });
      stream.on("wantTrailers", () => {
        const send = () =>
          stream.sendTrailers(behaviour === "message, then an error status" ? { "grpc-status": "13", "grpc-message": "late" } : { "grpc-status": "0" });
        if (behaviour === "message, trailers held") held.push(send);
        else send();
      });
      stream.end(framed(PAYMENT));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  address = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const release of held) release();
  await new Promise((resolve) => server.close(resolve));
});

const client = () => new CoreClient({ address, internalToken: undefined, timeoutMs: 3_000 });

async function withClient(use: (c: CoreClient) => Promise<void>): Promise<void> {
  const c = client();
  try {
    await use(c);
  } finally {
    c.close();
  }
}

describe("a unary call to the core", () => {
  test("is answered by its message while the trailers are still held", async () => {
    behaviour = "message, trailers held";
    const c = client();
    try {
      // Waiting for the trailers would end this call at its deadline (DEADLINE_EXCEEDED), not with the payment.
      const answer = await c.payments.getPayment({ id: "pay_held" });
      expect(answer.json.toString()).toBe('{"id":"pay_held"}');
      expect(held.length).toBe(1);
    } finally {
      for (const release of held.splice(0)) release();
      c.close();
    }
  });

  test("keeps the answer of its message when a status other than OK follows it", async () => {
    behaviour = "message, then an error status";
    await withClient(async (c) => {
      expect((await c.payments.getPayment({ id: "pay_held" })).json.toString()).toBe('{"id":"pay_held"}');
    });
  });

  test("with no message, fails with the catalog code the core sent", async () => {
    behaviour = "trailers only, catalog error";
    await withClient(async (c) => {
      await expect(c.payments.getPayment({ id: "pay_missing" })).rejects.toMatchObject({ code: "unknown_payment", message: "no such payment" });
    });
  });

  test("an OK with no message is an internal error, not an empty answer", async () => {
    behaviour = "trailers only, OK";
    await withClient(async (c) => {
      await expect(c.payments.getPayment({ id: "pay_none" })).rejects.toMatchObject({ code: "internal_error" });
    });
  });
});

// A loopback TCP proxy in front of a real server that loses answers on purpose: while
// `dropResponses` is above zero, the next request is carried to the server, and when the server
// starts to answer, both sides of that connection are cut, so the request took effect but the client
// never heard back (a network cut mid-request). Everything else is passed through untouched.
import { once } from "node:events";
import * as net from "node:net";

export class FlakyProxy {
  /** Requests whose answer is still to be dropped. */
  dropResponses: number;
  /** Connections accepted so far, and how many of them lost their answer. */
  connections = 0;
  dropped = 0;
  readonly #upstream: { host: string; port: number };
  readonly #server = net.createServer((client) => this.#accept(client));
  readonly #sockets = new Set<net.Socket>();

  constructor(upstreamUrl: string, dropResponses = 1) {
    const url = new URL(upstreamUrl);
    this.#upstream = { host: url.hostname, port: Number(url.port) };
    this.dropResponses = dropResponses;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as net.AddressInfo).port}`;
  }

  async start(): Promise<this> {
    this.#server.listen(0, "127.0.0.1");
    await once(this.#server, "listening");
    return this;
  }

  async stop(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #accept(client: net.Socket): void {
    this.connections++;
    const upstream = net.connect(this.#upstream);
    for (const socket of [client, upstream]) {
      this.#sockets.add(socket);
      socket.on("error", () => socket.destroy());
      // One side gone, the other goes too.
      socket.on("close", () => {
        this.#sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    // Decided per request, not per connection: a kept-alive connection carries later requests too.
    let dropping = false;
    client.on("data", (chunk: Buffer) => {
      if (!dropping && this.dropResponses > 0) {
        this.dropResponses--;
        dropping = true;
      }
      upstream.write(chunk);
    });
    client.on("end", () => upstream.end());
    upstream.on("data", (chunk: Buffer) => {
      if (!dropping) {
        client.write(chunk);
        return;
      }
      this.dropped++;
      client.destroy();
      upstream.destroy();
    });
    upstream.on("end", () => client.end());
  }
}

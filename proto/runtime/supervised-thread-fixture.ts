// A thread for supervised-thread.test.ts: does what it is told, and, like the real ones, keeps
// listening on its port after `close` (so only the supervisor's terminate ends it).
import { parentPort, threadId } from "node:worker_threads";

export type ToFixture = { type: "ping" } | { type: "exit" } | { type: "throw" } | { type: "close"; answer: boolean };
export type FromFixture = { type: "pong"; threadId: number } | { type: "closed" };

const port = parentPort!;
port.on("message", (message: ToFixture) => {
  if (message.type === "ping") port.postMessage({ type: "pong", threadId } satisfies FromFixture);
  else if (message.type === "exit") process.exit(3);
  else if (message.type === "throw")
    setImmediate(() => {
      throw new Error("fixture failed");
    });
  else if (message.answer) port.postMessage({ type: "closed" } satisfies FromFixture);
});

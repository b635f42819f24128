// A core whose LIVE processor is the sandbox card network, for tests that need live payments to
// reach states only a live processor can give them (captured, to refund; in flight, to refuse).
// Live mode has no processor yet and sandbox steps refuse live payments, so this launcher (started
// by test/support/stack.ts with `liveCardNetwork`) is the one way to get there; it exists only in
// test/ and is never built into dist/. Plain JavaScript: it runs the compiled core from dist/, as
// every process of the harness does.
import { runCore } from "../../dist/core/src/main.js";
import { sandboxProcessor } from "../../dist/core/src/processor/sandbox.js";

runCore({ processors: (config) => ({ live: sandboxProcessor(config.sandbox) }) }).catch((err) => {
  console.error(err);
  process.exit(1);
});

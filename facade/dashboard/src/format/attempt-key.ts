// One Idempotency-Key per thing the user means to do once: a retry of the same submission (a
// double click, a request the network lost) reuses it, so the core does it at most once; a changed
// form or the next submission after a success gets a new one (the core refuses one key with two bodies).
import { useCallback, useState } from "react";

/** 128 random bits in hex (getRandomValues works outside secure contexts too, unlike randomUUID). */
function newKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

export function useAttemptKey(): { key: string; next: () => void } {
  const [key, setKey] = useState(newKey);
  return { key, next: useCallback(() => setKey(newKey()), []) };
}

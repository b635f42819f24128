import { useState } from "react";
import { useMessages } from "../i18n/i18n.tsx";
import { shellMessages } from "../i18n/messages/shell.ts";

/** Copies `text` to the clipboard and says so where screen readers hear it. `label` names what is copied. */
export function CopyButton({ text, label }: { text: string; label?: string }) {
  const m = useMessages(shellMessages);
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState("copied");
    } catch {
      setState("failed");
    }
  };
  return (
    <span className="copy">
      <button type="button" className="button button-secondary" onClick={() => void copy()} aria-label={label ? `${m.copy.copy}: ${label}` : undefined}>
        {m.copy.copy}
      </button>
      <span className="copy-status" role="status">
        {state === "copied" ? m.copy.copied : state === "failed" ? m.copy.failed : ""}
      </span>
    </span>
  );
}

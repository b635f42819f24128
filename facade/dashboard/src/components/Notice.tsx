import type { ReactNode } from "react";
import type { Tone } from "./StatusBadge.tsx";

/** A message block; errors are announced (role=alert), the rest politely (role=status). */
export function Notice({ tone = "info", children }: { tone?: Tone; children: ReactNode }) {
  return (
    <div className={`notice notice-${tone}`} role={tone === "danger" ? "alert" : "status"}>
      {children}
    </div>
  );
}

import type { Lang } from "../i18n/messages.ts";

/** The merchant's time zone when it has none of its own (DESIGN §5). */
export const DEFAULT_TIME_ZONE = "America/Guatemala";

const LOCALE: Record<Lang, string> = { es: "es-GT", en: "en-US" };

/** An ISO instant as a date and time in `timeZone`: "25 nov 2026, 11:50" / "Nov 25, 2026, 11:50 AM". */
export function formatDateTime(iso: string, lang: Lang, timeZone: string = DEFAULT_TIME_ZONE): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(LOCALE[lang], { timeZone, dateStyle: "medium", timeStyle: "short" }).format(date);
}

/** An ISO instant as the calendar day it falls on in `timeZone`. */
export function formatDate(iso: string, lang: Lang, timeZone: string = DEFAULT_TIME_ZONE): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(LOCALE[lang], { timeZone, dateStyle: "medium" }).format(date);
}

export type Lang = "es" | "en";
export const LANGS: readonly Lang[] = ["es", "en"];

/** One module's texts in both languages; English must have every key Spanish has, with the same type. */
export type Messages<T> = { es: T; en: NoInfer<T> };

/**
 * How a page declares its texts (i18n/messages/<page>.ts): plain strings, or functions for texts
 * with values in them. Read them in a component with `useMessages(module)`.
 */
export function defineMessages<T extends Record<string, unknown>>(messages: Messages<T>): Messages<T> {
  return messages;
}

/** A wait in words: seconds up to a minute and a half, then whole minutes (rounded up), as the hosted pages say it. */
export const waitText: Record<Lang, (seconds: number) => string> = {
  es: (s) => (s < 90 ? `${s} ${s === 1 ? "segundo" : "segundos"}` : `${Math.ceil(s / 60)} minutos`),
  en: (s) => (s < 90 ? `${s} ${s === 1 ? "second" : "seconds"}` : `${Math.ceil(s / 60)} minutes`),
};

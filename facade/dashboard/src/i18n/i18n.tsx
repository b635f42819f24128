import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { LANGS, type Lang, type Messages } from "./messages.ts";

const STORAGE_KEY = "paytami.dashboard.lang";

/** The remembered choice first, then the browser's languages in order, then Spanish (Guatemala first). */
export function initialLang(stored: string | null, browserLanguages: readonly string[]): Lang {
  if (stored === "es" || stored === "en") return stored;
  for (const tag of browserLanguages) {
    const lang = tag.toLowerCase().split("-")[0];
    if (lang === "es" || lang === "en") return lang;
  }
  return "es";
}

function storedLang(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

interface LangState {
  lang: Lang;
  setLang: (lang: Lang) => void;
  /** The merchant's default language (Settings): taken only while this browser holds no choice of the user's. */
  adoptDefault: (lang: string | null) => void;
}

const LangContext = createContext<LangState>({ lang: "es", setLang: () => undefined, adoptDefault: () => undefined });

export function I18nProvider({ children }: { children: ReactNode }) {
  const [lang, setLangState] = useState<Lang>(() => initialLang(storedLang(), navigator.languages ?? [navigator.language]));
  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);
  const value = useMemo<LangState>(
    () => ({
      lang,
      setLang: (next) => {
        if (!LANGS.includes(next)) return;
        try {
          localStorage.setItem(STORAGE_KEY, next);
        } catch {
          // private mode: the choice lasts for this page only
        }
        setLangState(next);
      },
      adoptDefault: (next) => {
        if (storedLang() === null && (next === "es" || next === "en")) setLangState(next);
      },
    }),
    [lang],
  );
  return <LangContext value={value}>{children}</LangContext>;
}

export function useLang(): LangState {
  return useContext(LangContext);
}

/** A message module's texts in the current language. */
export function useMessages<T>(messages: Messages<T>): T {
  return messages[useLang().lang];
}

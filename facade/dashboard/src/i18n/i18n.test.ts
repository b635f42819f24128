import { describe, expect, it } from "vitest";
import { initialLang } from "./i18n.tsx";

describe("dashboard language", () => {
  it("takes the remembered choice, then the browser's first Spanish or English, then Spanish", () => {
    expect(initialLang("en", ["es-GT"])).toBe("en");
    expect(initialLang(null, ["en-US", "es"])).toBe("en");
    expect(initialLang(null, ["fr-FR", "es-GT", "en"])).toBe("es");
    expect(initialLang(null, ["de"])).toBe("es");
    expect(initialLang("xx", [])).toBe("es");
  });
});

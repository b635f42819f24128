export type Locale = "es" | "en";

/** Spanish unless the browser prefers English (Guatemala's customers first). */
export function pickLocale(acceptLanguage: string | undefined): Locale {
  const ranked = (acceptLanguage ?? "")
    .split(",")
    .map((part) => {
      const [tag, ...params] = part.trim().toLowerCase().split(";");
      const q = params.map((p) => /^q=([\d.]+)$/.exec(p.trim())?.[1]).find(Boolean);
      return { lang: (tag ?? "").split("-")[0], q: q === undefined ? 1 : Number(q) };
    })
    .filter((entry) => entry.lang === "es" || entry.lang === "en")
    .sort((a, b) => b.q - a.q);
  return ranked[0]?.lang === "en" ? "en" : "es";
}

export const TEXT = {
  es: {
    title: "Pagar", payTo: "Pago a", amount: "Monto", reference: "Referencia", method: "Método",
    card: "Tarjeta", bank_transfer: "Transferencia bancaria", test: "Modo de prueba: no se cobrará dinero real.",
    comingSoon: "Elija cómo pagar para continuar.", cancel: "Cancelar y volver a la tienda",
    resolvedTitle: "Este pago ya no acepta intentos", backToStore: "Volver a la tienda",
    reasons: { already_paid: "Este pago ya fue completado.", failed: "Este pago falló.", canceled: "Este pago fue cancelado.", expired: "Este pago expiró." },
    notFoundTitle: "Pago no encontrado", notFound: "No existe un pago con esta dirección.",
    linkExpiredTitle: "Enlace vencido", linkExpired: "Este enlace de pago embebido venció. Vuelva a la tienda e intente de nuevo.",
    unavailableTitle: "Servicio no disponible", unavailable: "No podemos mostrar este pago en este momento. Intente de nuevo en unos minutos.",
    errorTitle: "Algo salió mal", error: "No pudimos mostrar este pago. Intente de nuevo más tarde.",
  },
  en: {
    title: "Pay", payTo: "Payment to", amount: "Amount", reference: "Reference", method: "Method",
    card: "Card", bank_transfer: "Bank transfer", test: "Test mode: no real money will be charged.",
    comingSoon: "Choose how to pay to continue.", cancel: "Cancel and return to the store",
    resolvedTitle: "This payment accepts no further attempts", backToStore: "Return to the store",
    reasons: { already_paid: "This payment has already been completed.", failed: "This payment failed.", canceled: "This payment was canceled.", expired: "This payment expired." },
    notFoundTitle: "Payment not found", notFound: "There is no payment at this address.",
    linkExpiredTitle: "Link expired", linkExpired: "This embedded payment link has expired. Return to the store and try again.",
    unavailableTitle: "Service unavailable", unavailable: "We cannot show this payment right now. Please try again in a few minutes.",
    errorTitle: "Something went wrong", error: "We could not show this payment. Please try again later.",
  },
} as const;

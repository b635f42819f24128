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

/** A wait in words: seconds up to a minute and a half, then whole minutes (rounded up). */
const waitEs = (seconds: number) => (seconds < 90 ? `${seconds} ${seconds === 1 ? "segundo" : "segundos"}` : `${Math.ceil(seconds / 60)} minutos`);
const waitEn = (seconds: number) => (seconds < 90 ? `${seconds} ${seconds === 1 ? "second" : "seconds"}` : `${Math.ceil(seconds / 60)} minutes`);

export const TEXT = {
  es: {
    title: "Pagar", payTo: "Pago a", amount: "Monto", reference: "Referencia", method: "Método",
    card: "Tarjeta", bank_transfer: "Transferencia bancaria", test: "Modo de prueba: no se cobrará dinero real.",
    cancel: "Cancelar y volver a la tienda",
    resolvedTitle: "Este pago ya no acepta intentos", backToStore: "Volver a la tienda",
    reasons: { already_paid: "Este pago ya fue completado.", failed: "Este pago falló.", canceled: "Este pago fue cancelado.", expired: "Este pago expiró." },
    notFoundTitle: "Pago no encontrado", notFound: "No existe un pago con esta dirección.",
    linkExpiredTitle: "Enlace vencido", linkExpired: "Este enlace de pago embebido venció. Vuelva a la tienda e intente de nuevo.",
    unavailableTitle: "Servicio no disponible", unavailable: "No podemos mostrar este pago en este momento. Intente de nuevo en unos minutos.",
    linkFullTitle: "Este enlace no acepta más pagos", linkFull: "El enlace de pago ya recibió todos los pagos que admite, o el último se está procesando. No se hizo ningún cargo.",
    errorTitle: "Algo salió mal", error: "No pudimos mostrar este pago. Intente de nuevo más tarde.",
    cardNumber: "Número de tarjeta", cardExpiry: "Vencimiento (MM/AA)", cardCvc: "Código de seguridad (CVC)", cardName: "Nombre en la tarjeta",
    cardNumberHint: "El número largo del frente de la tarjeta.", cardCvcHint: "3 dígitos al reverso (4 al frente en American Express).",
    payNow: "Pagar", paying: "Procesando…", cancelPayment: "Cancelar pago",
    errorSummary: "Revise los datos marcados:",
    errors: {
      numberInvalid: "El número de tarjeta no es válido. Revise los dígitos.",
      expiryInvalid: "Escriba el vencimiento como MM/AA, por ejemplo 08/29.",
      expiryPast: "Esta tarjeta está vencida.",
      cvcInvalid: "El código de seguridad tiene 3 o 4 dígitos.",
      nameRequired: "Escriba el nombre como aparece en la tarjeta.",
    },
    tryAgain: "No pudimos procesar el pago en este momento y no se hizo ningún cargo. Intente de nuevo.",
    rejectedByCore: "No pudimos procesar estos datos. Revíselos e intente de nuevo.",
    cardRateLimited: (seconds: number) => `Demasiados intentos con tarjeta desde esta conexión o en este pago. Espere ${waitEs(seconds)} e intente de nuevo; no se hizo ningún cargo.`,
    tooManyRequestsTitle: "Demasiadas solicitudes", tooManyRequests: "Recibimos demasiadas solicitudes desde su conexión. Espere un momento e intente de nuevo.",
    brands: { visa: "Visa", mastercard: "Mastercard", amex: "American Express", discover: "Discover", diners: "Diners Club", jcb: "JCB", unknown: "Tarjeta" },
    challengeTitle: "Confirme su pago", challengeText: "Su banco pide confirmar este pago. (Modo de prueba: elija el resultado.)",
    challengeComplete: "Confirmar pago", challengeFail: "No confirmar",
    bankStartText: "Le mostraremos la cuenta a la que debe transferir y una referencia única para este pago.",
    bankStart: "Pagar por transferencia",
    bankTitle: "Transfiera a esta cuenta", bankName: "Banco", accountName: "A nombre de", accountNumber: "Número de cuenta",
    bankReference: "Referencia (escríbala en la transferencia)", copy: "Copiar", copied: "Copiado",
    waiting: "Esperando su transferencia. Esta página se actualiza sola cuando la recibamos.",
    processingTitle: "Procesando su pago", processing: "Estamos procesando su pago. Esta página se actualiza sola.",
    checkAgain: "Ver si ya se confirmó",
  },
  en: {
    title: "Pay", payTo: "Payment to", amount: "Amount", reference: "Reference", method: "Method",
    card: "Card", bank_transfer: "Bank transfer", test: "Test mode: no real money will be charged.",
    cancel: "Cancel and return to the store",
    resolvedTitle: "This payment accepts no further attempts", backToStore: "Return to the store",
    reasons: { already_paid: "This payment has already been completed.", failed: "This payment failed.", canceled: "This payment was canceled.", expired: "This payment expired." },
    notFoundTitle: "Payment not found", notFound: "There is no payment at this address.",
    linkExpiredTitle: "Link expired", linkExpired: "This embedded payment link has expired. Return to the store and try again.",
    unavailableTitle: "Service unavailable", unavailable: "We cannot show this payment right now. Please try again in a few minutes.",
    linkFullTitle: "This link accepts no more payments", linkFull: "The payment link has taken all the payments it accepts, or its last one is being processed. Nothing was charged.",
    errorTitle: "Something went wrong", error: "We could not show this payment. Please try again later.",
    cardNumber: "Card number", cardExpiry: "Expiry (MM/YY)", cardCvc: "Security code (CVC)", cardName: "Name on card",
    cardNumberHint: "The long number on the front of the card.", cardCvcHint: "3 digits on the back (4 on the front for American Express).",
    payNow: "Pay", paying: "Processing…", cancelPayment: "Cancel payment",
    errorSummary: "Please check the marked fields:",
    errors: {
      numberInvalid: "This card number is not valid. Check the digits.",
      expiryInvalid: "Enter the expiry as MM/YY, for example 08/29.",
      expiryPast: "This card has expired.",
      cvcInvalid: "The security code has 3 or 4 digits.",
      nameRequired: "Enter the name as it appears on the card.",
    },
    tryAgain: "We could not process the payment right now and nothing was charged. Please try again.",
    rejectedByCore: "We could not process these details. Please check them and try again.",
    cardRateLimited: (seconds: number) => `Too many card attempts from this connection or on this payment. Wait ${waitEn(seconds)} and try again; nothing was charged.`,
    tooManyRequestsTitle: "Too many requests", tooManyRequests: "We received too many requests from your connection. Please wait a moment and try again.",
    brands: { visa: "Visa", mastercard: "Mastercard", amex: "American Express", discover: "Discover", diners: "Diners Club", jcb: "JCB", unknown: "Card" },
    challengeTitle: "Confirm your payment", challengeText: "Your bank asks you to confirm this payment. (Test mode: choose the result.)",
    challengeComplete: "Confirm payment", challengeFail: "Do not confirm",
    bankStartText: "We will show you the account to transfer to and a reference unique to this payment.",
    bankStart: "Pay by bank transfer",
    bankTitle: "Transfer to this account", bankName: "Bank", accountName: "Account name", accountNumber: "Account number",
    bankReference: "Reference (put it in the transfer)", copy: "Copy", copied: "Copied",
    waiting: "Waiting for your transfer. This page updates by itself when we receive it.",
    processingTitle: "Processing your payment", processing: "We are processing your payment. This page updates by itself.",
    checkAgain: "Check whether it is confirmed",
  },
} as const;

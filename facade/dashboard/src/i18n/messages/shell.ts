import { defineMessages } from "../messages.ts";

/** The layout's texts, the navigation's labels (one per routes.tsx entry with `nav`) and the shared errors. */
export const shellMessages = defineMessages({
  es: {
    product: "Paytami",
    skipToContent: "Saltar al contenido",
    navLabel: "Secciones",
    nav: { home: "Inicio", payments: "Pagos", links: "Enlaces de pago", balances: "Saldos y retiros", team: "Equipo", security: "Seguridad" },
    testBanner: "MODO DE PRUEBA — Nada de lo que ve aquí es dinero real.",
    modeLabel: "Modo",
    modes: { test: "Prueba", live: "Producción" },
    merchantLabel: "Comercio",
    languageLabel: "Idioma",
    languages: { es: "Español", en: "English" },
    signedInAs: (email: string) => `Sesión de ${email}`,
    signOut: "Cerrar sesión",
    loading: "Cargando…",
    notFoundTitle: "Página no encontrada",
    notFound: "No hay nada en esta dirección.",
    backHome: "Ir al inicio",
    errors: {
      unavailable: "El servicio no está disponible en este momento. Intente de nuevo en unos minutos.",
      forbidden: "Su rol no permite esta acción.",
      rateLimited: (wait: string) => `Demasiados intentos. Intente de nuevo en ${wait}.`,
      generic: "Algo salió mal. Intente de nuevo.",
      sessionEnded: "Su sesión terminó. Inicie sesión de nuevo.",
    },
    table: { next: "Página siguiente", previous: "Página anterior", empty: "No hay nada que mostrar.", pageLabel: "Paginación" },
    copy: { copy: "Copiar", copied: "Copiado", failed: "No se pudo copiar; selecciónelo y cópielo." },
    roles: { owner: "Propietario", admin: "Administrador", developer: "Desarrollador", viewer: "Lector" },
  },
  en: {
    product: "Paytami",
    skipToContent: "Skip to content",
    navLabel: "Sections",
    nav: { home: "Home", payments: "Payments", links: "Payment links", balances: "Balances and payouts", team: "Team", security: "Security" },
    testBanner: "TEST MODE — Nothing you see here is real money.",
    modeLabel: "Mode",
    modes: { test: "Test", live: "Live" },
    merchantLabel: "Merchant",
    languageLabel: "Language",
    languages: { es: "Español", en: "English" },
    signedInAs: (email: string) => `Signed in as ${email}`,
    signOut: "Sign out",
    loading: "Loading…",
    notFoundTitle: "Page not found",
    notFound: "There is nothing at this address.",
    backHome: "Go home",
    errors: {
      unavailable: "The service is unavailable right now. Try again in a few minutes.",
      forbidden: "Your role does not allow this.",
      rateLimited: (wait: string) => `Too many attempts. Try again in ${wait}.`,
      generic: "Something went wrong. Try again.",
      sessionEnded: "Your session ended. Sign in again.",
    },
    table: { next: "Next page", previous: "Previous page", empty: "Nothing to show.", pageLabel: "Pagination" },
    copy: { copy: "Copy", copied: "Copied", failed: "Could not copy; select it and copy it." },
    roles: { owner: "Owner", admin: "Admin", developer: "Developer", viewer: "Viewer" },
  },
});

export type ShellMessages = (typeof shellMessages)["es"];
export type NavKey = keyof ShellMessages["nav"];

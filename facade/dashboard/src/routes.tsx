// Every page of the app in one table. A page is a default-exported component in pages/, loaded on
// demand (its own chunk: the first load carries only the shell and the page at hand). Paths are
// relative to /dashboard (wouter's base).
import { lazy, type ComponentType, type LazyExoticComponent } from "react";
import type { NavKey } from "./i18n/messages/shell.ts";
import type { Role } from "./roles.ts";

export interface AppRoute {
  /** wouter pattern, e.g. "/payments/:id". */
  path: string;
  page: LazyExoticComponent<ComponentType>;
  /** In the navigation, labelled shellMessages.nav[key], for roles from `least` up. */
  nav?: { key: NavKey; least: Role };
}

/** Pages without a session (the facade serves the same index for all of them). */
export const PUBLIC_ROUTES: readonly AppRoute[] = [
  { path: "/sign-in", page: lazy(() => import("./pages/SignIn.tsx")) },
  { path: "/invite/:token", page: lazy(() => import("./pages/Invite.tsx")) },
  { path: "/reset/:token", page: lazy(() => import("./pages/Reset.tsx")) },
];

/** Pages of a signed-in user, inside the layout; the navigation lists those with `nav`, in this order. */
export const SESSION_ROUTES: readonly AppRoute[] = [
  { path: "/", page: lazy(() => import("./pages/Home.tsx")), nav: { key: "home", least: "viewer" } },
  { path: "/payments", page: lazy(() => import("./pages/Payments.tsx")), nav: { key: "payments", least: "viewer" } },
  { path: "/payments/:id", page: lazy(() => import("./pages/PaymentDetail.tsx")) },
  { path: "/links", page: lazy(() => import("./pages/Links.tsx")), nav: { key: "links", least: "viewer" } },
  // Before "/links/:id", which would take "new" for an id.
  { path: "/links/new", page: lazy(() => import("./pages/LinkCreate.tsx")) },
  { path: "/links/:id", page: lazy(() => import("./pages/LinkDetail.tsx")) },
  { path: "/balances", page: lazy(() => import("./pages/Balances.tsx")), nav: { key: "balances", least: "viewer" } },
  { path: "/team", page: lazy(() => import("./pages/Team.tsx")), nav: { key: "team", least: "viewer" } },
  { path: "/security", page: lazy(() => import("./pages/Security.tsx")), nav: { key: "security", least: "viewer" } },
  { path: "/api-keys", page: lazy(() => import("./pages/ApiKeys.tsx")), nav: { key: "apiKeys", least: "developer" } },
  { path: "/webhooks", page: lazy(() => import("./pages/Webhooks.tsx")), nav: { key: "webhooks", least: "developer" } },
  { path: "/webhooks/:id", page: lazy(() => import("./pages/WebhookDetail.tsx")) },
  { path: "/events", page: lazy(() => import("./pages/Events.tsx")), nav: { key: "events", least: "developer" } },
  { path: "/events/:id", page: lazy(() => import("./pages/EventDetail.tsx")) },
  { path: "/request-logs", page: lazy(() => import("./pages/RequestLogs.tsx")), nav: { key: "requestLogs", least: "developer" } },
  { path: "/request-logs/:id", page: lazy(() => import("./pages/RequestLogDetail.tsx")) },
  { path: "/settings", page: lazy(() => import("./pages/Settings.tsx")), nav: { key: "settings", least: "admin" } },
];

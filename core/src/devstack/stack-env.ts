// What `npm start` and `npm run cluster` give their processes: the credentials (kept in dev.json
// where they must survive a restart), the environment every process shares, and each process's
// own credential on top of it.
import { randomBytes } from "node:crypto";
import type { DevJson } from "./dev-json.ts";
import type { ServiceName } from "./services.ts";

export interface StackSecrets {
  internalToken: string;
  facadeToken: string;
  dispatcherToken: string;
  embedTokenSecret: string;
}

const fresh = () => randomBytes(32).toString("base64url");

export function stackSecrets(previous: Partial<DevJson> | null): StackSecrets {
  return {
    internalToken: process.env.PAYTAMI_INTERNAL_TOKEN || previous?.internal_token || fresh(),
    // The facade's and dispatcher's own credentials: nothing outside this run needs them, so they
    // are made afresh each time and kept nowhere.
    facadeToken: process.env.PAYTAMI_FACADE_TOKEN || fresh(),
    dispatcherToken: process.env.PAYTAMI_DISPATCHER_TOKEN || fresh(),
    // Generated once and kept: embed tokens handed out before a restart must still open the page.
    embedTokenSecret: process.env.EMBED_TOKEN_SECRET || previous?.embed_token_secret || fresh(),
  };
}

/** Our environment without any credential (each process gets only its own) and with TLS off on loopback. */
export function baseEnvironment(settings: { home: string; databaseUrl: string; natsUrl: string; baseUrl: string; secrets: StackSecrets }): NodeJS.ProcessEnv {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(PAYTAMI_(INTERNAL|FACADE|DISPATCHER)_TOKEN|CORE_TLS_\w+)$/.test(name)),
  );
  return {
    ...inherited,
    PAYTAMI_HOME: settings.home,
    DATABASE_URL: settings.databaseUrl,
    NATS_URL: settings.natsUrl,
    PUBLIC_BASE_URL: settings.baseUrl,
    EMBED_BASE_URL: process.env.EMBED_BASE_URL || settings.baseUrl,
    EMBED_TOKEN_SECRET: settings.secrets.embedTokenSecret,
    // Local development: test-mode endpoints may be the developer's own server (http://localhost:…).
    // The services' default is off, so a production configuration never has it by accident.
    WEBHOOK_ALLOW_LOOPBACK: process.env.WEBHOOK_ALLOW_LOOPBACK || "true",
  };
}

export function credentialsFor(name: ServiceName, secrets: StackSecrets): NodeJS.ProcessEnv {
  switch (name) {
    case "core":
      return { PAYTAMI_INTERNAL_TOKEN: secrets.internalToken, PAYTAMI_FACADE_TOKEN: secrets.facadeToken, PAYTAMI_DISPATCHER_TOKEN: secrets.dispatcherToken };
    case "facade":
      return { PAYTAMI_FACADE_TOKEN: secrets.facadeToken };
    case "dispatcher":
      return { PAYTAMI_DISPATCHER_TOKEN: secrets.dispatcherToken };
  }
}

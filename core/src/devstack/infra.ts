// PostgreSQL + NATS for `npm start` and `npm test`. A piece whose URL is already in the
// environment (DATABASE_URL / NATS_URL) is used as is and never started or stopped by us.
import { startNats, type NatsHandle } from "./nats.ts";
import { startPostgres, type PostgresHandle } from "./postgres.ts";
import { say } from "./report.ts";

export interface Infra {
  databaseUrl: string;
  natsUrl: string;
  // Present only for a nats-server we started, so callers can notice it dying.
  nats?: NatsHandle;
  stop(): Promise<void>;
}

export async function provisionInfra(home: string): Promise<Infra> {
  const envDatabase = process.env.DATABASE_URL;
  const envNats = process.env.NATS_URL;
  if (envDatabase) say("using DATABASE_URL from the environment");
  if (envNats) say("using NATS_URL from the environment");

  const [pg, nats] = await Promise.allSettled([
    envDatabase ? Promise.resolve(undefined) : startPostgres(home),
    envNats ? Promise.resolve(undefined) : startNats(home),
  ]);
  const postgres: PostgresHandle | undefined = pg.status === "fulfilled" ? pg.value : undefined;
  const natsHandle: NatsHandle | undefined = nats.status === "fulfilled" ? nats.value : undefined;

  const stop = async () => {
    // Stop order does not matter between the two; both run in parallel to shut down quickly.
    await Promise.all([natsHandle?.stop(), postgres?.stop()]);
  };
  if (pg.status === "rejected" || nats.status === "rejected") {
    await stop();
    throw pg.status === "rejected" ? pg.reason : (nats as PromiseRejectedResult).reason;
  }
  const databaseUrl = envDatabase ?? postgres!.url;
  const natsUrl = envNats ?? natsHandle!.url;
  if (postgres) say(`PostgreSQL ready: ${databaseUrl}`);
  if (natsHandle) say(`nats-server ready: ${natsUrl}`);
  return { databaseUrl, natsUrl, nats: natsHandle, stop };
}

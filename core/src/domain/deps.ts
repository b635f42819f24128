import type { MikroORM } from "@mikro-orm/postgresql";
import type { CoreConfig } from "../config.ts";
import type { Logger } from "../logger.ts";

/** What every domain operation may use. Transports build it once per process. */
export interface CoreDeps {
  orm: MikroORM;
  config: CoreConfig;
  log: Logger;
  now: () => Date;
}

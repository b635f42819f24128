import type { MikroORM } from "@mikro-orm/postgresql";
import type { CoreConfig } from "../config.ts";
import type { Logger } from "../../../proto/runtime/logger.ts";
import type { Processors } from "../processor/processor.ts";

/** What every domain operation may use. Transports build it once per process. */
export interface CoreDeps {
  orm: MikroORM;
  config: CoreConfig;
  log: Logger;
  now: () => Date;
  /** Processors that replace the configured ones (tests: a card network that answers when told to). */
  processors?: Processors;
}

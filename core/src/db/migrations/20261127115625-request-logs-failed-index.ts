import { Migration } from '@mikro-orm/migrations';

export class Migration20261127115625_request_logs_failed_index extends Migration {

  override name = 'Migration20261127115625_request_logs_failed_index';

  override up(): void | Promise<void> {
    this.addSql(`create index "request_logs_failed_idx" on "request_logs" ("merchant_id", "mode", "created_at" DESC, "seq" DESC, "status") where status >= 400;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "request_logs_failed_idx";`);
  }

}

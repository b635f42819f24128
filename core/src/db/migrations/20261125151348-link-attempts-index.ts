import { Migration } from '@mikro-orm/migrations';

export class Migration20261125151348_link_attempts_index extends Migration {

  override name = 'Migration20261125151348_link_attempts_index';

  override up(): void | Promise<void> {
    this.addSql(`create index "payments_link_attempt_idx" on "payments" ("link_id") where attempt_expires_at is not null and link_id is not null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "payments_link_attempt_idx";`);
  }

}

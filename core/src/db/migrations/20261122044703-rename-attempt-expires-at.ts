import { Migration } from '@mikro-orm/migrations';

export class Migration20261122044703_rename_attempt_expires_at extends Migration {

  override name = 'Migration20261122044703_rename_attempt_expires_at';

  override up(): void | Promise<void> {
    this.addSql(`alter table "payments" rename column "attempt_until" to "attempt_expires_at";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "payments" rename column "attempt_expires_at" to "attempt_until";`);
  }

}

import { Migration } from '@mikro-orm/migrations';

export class Migration20261125211325_api_key_last_used extends Migration {

  override name = 'Migration20261125211325_api_key_last_used';

  override up(): void | Promise<void> {
    this.addSql(`alter table "api_keys" add "last_used_at" timestamptz(3) null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "api_keys" drop column "last_used_at";`);
  }

}

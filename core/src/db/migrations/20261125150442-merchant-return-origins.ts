import { Migration } from '@mikro-orm/migrations';

export class Migration20261125150442_merchant_return_origins extends Migration {

  override name = 'Migration20261125150442_merchant_return_origins';

  override up(): void | Promise<void> {
    this.addSql(`alter table "merchants" add "return_origins" text[] not null default '{}';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "merchants" drop column "return_origins";`);
  }

}

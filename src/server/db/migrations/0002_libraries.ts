import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  const id = (c: import('kysely').ColumnDefinitionBuilder) => c.primaryKey().defaultTo(sql`gen_random_uuid()`);
  const now = (c: import('kysely').ColumnDefinitionBuilder) => c.notNull().defaultTo(sql`now()`);

  await db.schema
    .createTable('libraries')
    .addColumn('id', 'uuid', id)
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('is_default', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('is_demo', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('is_read_only', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('root_folder_id', 'uuid')
    .addColumn('settings', 'jsonb', (c) => c.notNull().defaultTo(sql`'{"v1":{}}'::jsonb`))
    .addColumn('created_at', 'timestamptz', now)
    .addColumn('updated_at', 'timestamptz', now)
    .execute();
  await db.schema.createIndex('libraries_user').on('libraries').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('folders')
    .addColumn('id', 'uuid', id)
    .addColumn('library_id', 'uuid', (c) => c.notNull().references('libraries.id').onDelete('cascade'))
    .addColumn('parent_id', 'uuid', (c) => c.references('folders.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', now)
    .addColumn('updated_at', 'timestamptz', now)
    .execute();
  await db.schema.createIndex('folders_parent').on('folders').columns(['library_id', 'parent_id', 'created_at']).execute();

  await db.schema
    .createTable('media')
    .addColumn('id', 'uuid', id)
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('library_id', 'uuid', (c) => c.notNull().references('libraries.id').onDelete('cascade'))
    .addColumn('folder_id', 'uuid', (c) => c.notNull().references('folders.id').onDelete('cascade'))
    .addColumn('unique_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('progress', 'real', (c) => c.notNull().defaultTo(0))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('blob_key', 'text', (c) => c.notNull())
    .addColumn('blob_shared', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('size_bytes', 'bigint', (c) => c.notNull())
    .addColumn('duration', 'double precision')
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('frame_count', 'integer')
    .addColumn('probe', 'jsonb')
    .addColumn('origin', 'jsonb', (c) => c.notNull())
    .addColumn('has_preview', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('error_message', 'text')
    .addColumn('created_at', 'timestamptz', now)
    .addColumn('updated_at', 'timestamptz', now)
    .execute();
  await db.schema.createIndex('media_folder').on('media').columns(['folder_id', 'created_at']).execute();
  await db.schema.createIndex('media_library').on('media').columns(['library_id', 'status']).execute();
  await db.schema.createIndex('media_user').on('media').columns(['user_id', 'status']).execute();
  // One live file per fingerprint and folder: duplicate detection cannot race.
  await sql`create unique index media_dedup on media (folder_id, unique_id) where status <> 'empty'`.execute(db);

  await db.schema
    .createTable('uploads')
    .addColumn('id', 'uuid', id)
    .addColumn('media_id', 'uuid', (c) => c.notNull().references('media.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('store_upload_id', 'text')
    .addColumn('blob_key', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'bigint', (c) => c.notNull())
    .addColumn('parts', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('finished_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', now)
    .execute();

  await db.schema
    .createTable('upload_parts')
    .addColumn('upload_id', 'uuid', (c) => c.notNull().references('uploads.id').onDelete('cascade'))
    .addColumn('part_number', 'integer', (c) => c.notNull())
    .addColumn('size_bytes', 'bigint', (c) => c.notNull())
    .addColumn('etag', 'text')
    .addPrimaryKeyConstraint('upload_parts_pk', ['upload_id', 'part_number'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['upload_parts', 'uploads', 'media', 'folders', 'libraries']) await db.schema.dropTable(t).execute();
}

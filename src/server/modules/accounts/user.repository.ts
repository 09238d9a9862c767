import { sql, type Kysely, type Selectable } from 'kysely';
import type { DB, UsersTable } from '../../db/schema';

export type UserRow = Selectable<UsersTable>;

export class UserRepository {
  constructor(private readonly db: Kysely<DB>) {}

  byId(id: string) {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** A user with the ids of the libraries they own, in one statement (what authenticating a request reads). */
  async byIdWithLibraries(id: string): Promise<{ user: UserRow; libraryIds: string[] } | undefined> {
    const row = await this.db
      .selectFrom('users')
      .selectAll('users')
      .select(sql<string[]>`array(select l.id from libraries l where l.user_id = users.id)`.as('library_ids'))
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) return undefined;
    const { library_ids: libraryIds, ...user } = row;
    return { user, libraryIds };
  }

  byEmail(email: string) {
    return this.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
  }

  /** Inserts a user, or returns undefined when the email is taken (the unique index decides, no race). */
  async create(input: { email: string; name: string; passwordHash: string }): Promise<UserRow | undefined> {
    return this.db
      .insertInto('users')
      .values({ email: input.email, name: input.name, password_hash: input.passwordHash, settings: '{}' })
      .onConflict((oc) => oc.column('email').doNothing())
      .returningAll()
      .executeTakeFirst();
  }

  async setPassword(id: string, passwordHash: string) {
    return this.db
      .updateTable('users')
      .set((eb) => ({ password_hash: passwordHash, token_version: eb('token_version', '+', 1), updated_at: new Date() }))
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  markVerified(id: string) {
    return this.db
      .updateTable('users')
      .set({ is_verified: true, updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /**
   * Claims the verification-mail slot: succeeds only if no mail went out in the last `waitSeconds`,
   * atomically, so two concurrent resends cannot both send.
   */
  async claimVerificationSlot(id: string, waitSeconds: number): Promise<boolean> {
    const now = new Date();
    const cutoff = new Date(now.getTime() - waitSeconds * 1000);
    const row = await this.db
      .updateTable('users')
      .set({ last_verification_sent_at: now })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('last_verification_sent_at', 'is', null), eb('last_verification_sent_at', '<=', cutoff)]))
      .returning('id')
      .executeTakeFirst();
    return !!row;
  }

  updateSettings(id: string, settings: Record<string, unknown>) {
    return this.db
      .updateTable('users')
      .set({ settings: JSON.stringify(settings), updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }
}

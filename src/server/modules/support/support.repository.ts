import type { Kysely } from 'kysely';
import type { FeedbackInput } from '../../../contract';
import type { DB } from '../../db/schema';

/** Feedback from the global error dialog and the impersonation audit trail. */
export class SupportRepository {
  constructor(private readonly db: Kysely<DB>) {}

  addFeedback(input: FeedbackInput & { userId: string | null; userAgent: string }) {
    return this.db
      .insertInto('feedback')
      .values({
        user_id: input.userId,
        name: input.name,
        email: input.email,
        comments: input.comments,
        error: input.error,
        user_agent: input.userAgent,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
  }

  listFeedback() {
    return this.db.selectFrom('feedback').selectAll().orderBy('created_at', 'desc').execute();
  }

  recordImpersonation(userId: string, byEmail: string, expiresAt: Date) {
    return this.db.insertInto('impersonations').values({ user_id: userId, by_email: byEmail, expires_at: expiresAt }).execute();
  }
}

import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string, string>;

export interface UsersTable {
  id: Generated<string>;
  email: string;
  name: string;
  password_hash: string;
  is_verified: Generated<boolean>;
  token_version: Generated<number>;
  settings: Json<Record<string, unknown>>;
  last_verification_sent_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface OneTimeCodesTable {
  id: Generated<string>;
  user_id: string;
  purpose: 'verify' | 'reset';
  code_hash: string;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: Timestamp;
}

export interface RateEventsTable {
  id: Generated<string>;
  key: string;
  at: Timestamp;
}

export interface FeedbackTable {
  id: Generated<string>;
  user_id: string | null;
  name: string;
  email: string;
  comments: string;
  error: string;
  user_agent: string;
  created_at: Timestamp;
}

export interface ImpersonationsTable {
  id: Generated<string>;
  user_id: string;
  by_email: string;
  expires_at: Timestamp;
  created_at: Timestamp;
}

export interface DB {
  users: UsersTable;
  one_time_codes: OneTimeCodesTable;
  rate_events: RateEventsTable;
  feedback: FeedbackTable;
  impersonations: ImpersonationsTable;
}

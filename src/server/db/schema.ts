import type { ColumnType, Generated } from 'kysely';
import type { StoredProbe } from '../adapters/media/ffprobe';
import type { CaptionsOption, RenderAspect } from '../../contract';

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
  stripe_customer_id: ColumnType<string | null, string | null | undefined, string | null>;
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
  libraries: LibrariesTable;
  folders: FoldersTable;
  media: MediaTable;
  uploads: UploadsTable;
  upload_parts: UploadPartsTable;
  credit_accounts: CreditAccountsTable;
  credit_notes: CreditNotesTable;
  credit_entries: CreditEntriesTable;
  subscriptions: SubscriptionsTable;
  invoices: InvoicesTable;
  billing_events: BillingEventsTable;
  shots: ShotsTable;
  shot_terms: ShotTermsTable;
  keyframes: KeyframesTable;
  transcript_segments: TranscriptSegmentsTable;
  transcript_corrections: TranscriptCorrectionsTable;
  moment_trims: MomentTrimsTable;
  renders: RendersTable;
  render_slots: RenderSlotsTable;
  ingest_chunks: IngestChunksTable;
}

export interface LibrariesTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  is_default: Generated<boolean>;
  is_demo: Generated<boolean>;
  is_read_only: Generated<boolean>;
  root_folder_id: string | null;
  settings: Json<Record<string, unknown>>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface FoldersTable {
  id: Generated<string>;
  library_id: string;
  parent_id: string | null;
  name: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface MediaTable {
  id: Generated<string>;
  user_id: string;
  library_id: string;
  folder_id: string;
  unique_id: string;
  status: string;
  progress: Generated<number>;
  kind: 'video' | 'image';
  name: string;
  filename: string;
  blob_key: string;
  /** Demo media point at shared blobs that deletes must not remove. */
  blob_shared: Generated<boolean>;
  size_bytes: number;
  duration: number | null;
  width: number | null;
  height: number | null;
  frame_count: number | null;
  /** What ffprobe said at ingest (null until the probe stage has run). */
  probe: Json<StoredProbe> | null;
  origin: Json<{ source: 'external' | 'user'; type?: string; url?: string }>;
  has_preview: Generated<boolean>;
  /** Ingest bookkeeping: stages done, derived-file facts, features that could not be computed. */
  ingest: ColumnType<IngestState, string | undefined, string>;
  error_message: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface UploadsTable {
  id: Generated<string>;
  media_id: string;
  user_id: string;
  store_upload_id: string | null;
  blob_key: string;
  size_bytes: number;
  parts: number;
  expires_at: Timestamp;
  finished_at: Timestamp | null;
  created_at: Timestamp;
}

export interface UploadPartsTable {
  upload_id: string;
  part_number: number;
  size_bytes: number;
  etag: string | null;
}

export interface CreditAccountsTable {
  user_id: string;
  debt: Generated<number>;
}

export interface CreditNotesTable {
  id: Generated<string>;
  user_id: string;
  origin: string;
  original_amount: number;
  current_amount: number;
  expires_at: Date | string | null;
  invoice_id: string | null;
  created_at: Timestamp;
}

export interface CreditEntriesTable {
  id: Generated<string>;
  user_id: string;
  kind: 'grant' | 'charge';
  amount: number;
  idempotency_key: string;
  reason: string;
  allocations: Json<Array<{ noteId: string; amount: number }>>;
  note_id: string | null;
  created_at: Timestamp;
}

export interface SubscriptionsTable {
  user_id: string;
  product_id: string;
  pending_product_id: string | null;
  status: 'active' | 'ended';
  cancel_at_period_end: Generated<boolean>;
  term_start: Date | string;
  term_end: Date | string;
  provider: string;
  provider_ref: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface InvoicesTable {
  id: Generated<string>;
  number: Generated<number>;
  user_id: string;
  kind: 'subscription' | 'top-up';
  product_id: string;
  product_name: string;
  quantity: number;
  amount: number;
  currency: string;
  credits: number;
  storage_hours: number;
  provider: string;
  provider_ref: string | null;
  idempotency_key: string;
  created_at: Timestamp;
}

export interface BillingEventsTable {
  id: string;
  type: string;
  received_at: Timestamp;
}

export interface IngestState {
  done: string[];
  stage?: string;
  /**
   * The preview rendition: its segment count, and its first timestamp (MPEG-TS starts at ~1.4 s;
   * the source's time t is start + t there). Renditions made before `start` was kept have none.
   */
  hls?: { segments: number; start?: number };
  strip?: { interval: number; columns: number; count: number; width: number; height: number };
  /** The timeline thumbnail track (API.mediaThumbnailTrack): its keyframes and picture size. */
  track?: { count: number; width: number; height: number };
  /** Making the track for a media indexed before tracks existed failed: not tried again. */
  trackFailed?: boolean;
  missing?: string[];
  charged?: number;
  /** Milliseconds each stage took (for benchmarks and support). */
  timings?: Record<string, number>;
  /** A long media indexed in chunks (modules/ingest/chunks.ts): the grid's seconds and the chunk count, fixed when first planned. */
  chunking?: { seconds: number; count: number };
  /** The first decoded video frame's timestamp in its stream's time base (ffmpeg videoOrigin), for chunks of `keyframes`. */
  keyframeOrigin?: number;
}

/** One chunk of a long media's ingest stage (migration 0014): its progress, then its result. */
export interface IngestChunksTable {
  media_id: string;
  stage: string;
  idx: number;
  progress: Generated<number>;
  result: ColumnType<unknown, string | null | undefined, string | null>;
  /** How long the chunk's run took (ms), once done. */
  ms: number | null;
  done_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  updated_at: Generated<Date>;
}

export interface ShotsTable {
  media_id: string;
  idx: number;
  start: number;
  end: number;
  description: Generated<string>;
}

export interface ShotTermsTable {
  library_id: string;
  media_id: string;
  shot_idx: number;
  term: string;
  score: number;
}

export interface KeyframesTable {
  id: Generated<string>;
  media_id: string;
  library_id: string;
  t: number;
  shot_idx: number;
  objects: Json<unknown[]>;
  classes: Json<unknown[]>;
  colours: Json<unknown[]>;
  ocr: Generated<string>;
  terms: string | null;
  embedding: string | null;
  embedding_r: string | null;
  clip: string | null;
}

export interface TranscriptSegmentsTable {
  id: Generated<string>;
  media_id: string;
  library_id: string;
  start: number;
  end: number;
  text: string;
  speaker: Generated<string>;
  words: Json<unknown[]>;
  tsv: Generated<string>;
  /** What speech to text heard, once the text was corrected (migration 0009); null before. */
  original_text: ColumnType<string | null, string | null | undefined, string | null>;
  /** The text in its spoken forms, as transcript search indexes it (migration 0011); null until normalised. */
  spoken: ColumnType<string | null, string | null | undefined, string | null>;
  /** SPOKEN_FORMS_VERSION of the rules that made `spoken`. */
  spoken_version: ColumnType<number | null, number | null | undefined, number | null>;
}

/** A moment's trim on one account (null start/end: given its own range back), see migration 0011. */
export interface MomentTrimsTable {
  user_id: string;
  moment_id: string;
  original_start: number;
  original_end: number;
  start: number | null;
  end: number | null;
  edited_at: Timestamp;
  updated_at: Generated<Timestamp>;
}

export interface TranscriptCorrectionsTable {
  id: Generated<string>;
  media_id: string;
  segment_id: string | null;
  start: number;
  end: number;
  user_id: string;
  impersonated_by: string | null;
  kind: 'edit' | 'restore';
  old_text: string;
  new_text: string;
  created_at: Timestamp;
}

/** What a render reads: resolved clips (input blob, ranges) and output geometry. */
export interface RenderSpec {
  /** `framing`: the crop window's centre the user fixed for the clip (issue 39); absent, it follows the subject. */
  clips: Array<{ mediaId: string; libraryId: string; start: number; end: number; framing?: { x: number; y: number } }>;
  height: number;
  /** Issue 39: the picture's shape; absent is 'source' (renders made before it). */
  aspect?: RenderAspect;
  /** Issue 39: captions burned in (a style) and/or as a soft subtitle track; absent, none. */
  captions?: CaptionsOption;
}

export interface RendersTable {
  id: Generated<string>;
  user_id: string;
  kind: 'compilation' | 'gif';
  request_key: string;
  spec: Json<RenderSpec>;
  watermark: boolean;
  duration: number;
  cost: number;
  filename: string;
  status: Generated<'queued' | 'rendering' | 'completed' | 'failed'>;
  progress: Generated<number>;
  blob_key: string | null;
  error_message: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  expires_at: Timestamp;
}

export interface RenderSlotsTable {
  render_id: string;
  started_at: Timestamp;
  lease_until: Timestamp;
  released: Generated<boolean>;
}

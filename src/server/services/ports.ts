/** What services need from the job queue, without knowing pg-boss. */
export interface JobQueue {
  send(name: string, data: object, opts?: { singletonKey?: string }): Promise<void>;
}

/** The storage allowance of a user in hours of media (billing provides the real one). */
export interface StorageQuota {
  limitHours(userId: string): Promise<number>;
}

import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { poolConnection, SESSION_OPTIONS } from './sessionSettings';

describe("a PostgreSQL pool's startup options", () => {
  it('are ours when the URL has none', () => {
    const url = 'postgres://app:secret@db.internal:5432/clipseek?sslmode=require';
    expect(poolConnection(url)).toEqual({ connectionString: url, options: SESSION_OPTIONS });
  });

  it("keep ours and add the URL's own, which pg would otherwise let replace ours", () => {
    const withOptions = 'postgres://app@db/clipseek?options=-c%20statement_timeout%3D5000&sslmode=disable';
    const naive = new pg.Client({ connectionString: withOptions, options: SESSION_OPTIONS });
    expect((naive as unknown as { connectionParameters: { options: string } }).connectionParameters.options).toBe(
      '-c statement_timeout=5000',
    );
    const got = poolConnection(withOptions);
    expect(got.options).toBe(`${SESSION_OPTIONS} -c statement_timeout=5000`);
    expect(got.connectionString).toBe('postgres://app@db/clipseek?sslmode=disable');
    // What pg's client then starts the session with: both sets of settings.
    const client = new pg.Client(got);
    expect((client as unknown as { connectionParameters: { options: string } }).connectionParameters.options).toBe(got.options);
  });

  it('pass a key=value connection string on unchanged', () => {
    expect(poolConnection('host=/tmp dbname=clipseek')).toEqual({
      connectionString: 'host=/tmp dbname=clipseek',
      options: SESSION_OPTIONS,
    });
  });
});

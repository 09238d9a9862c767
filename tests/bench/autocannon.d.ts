// The part of autocannon's API the load benchmark uses (the package ships no types).
declare module 'autocannon' {
  interface Histogram {
    min: number;
    max: number;
    average: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
  }
  interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
  }
  interface Options {
    url: string;
    title?: string;
    connections?: number;
    amount?: number;
    duration?: number;
    timeout?: number;
    method?: string;
    headers?: Record<string, string>;
    requests?: Request[];
  }
  interface Result {
    title?: string;
    requests: Histogram & { total: number; sent: number };
    latency: Histogram & { totalCount: number };
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    statusCodeStats: Record<string, { count: number }>;
  }
  interface Client {
    on(event: 'response', fn: (statusCode: number, resBytes: number, responseTime: number) => void): void;
  }
  interface Instance extends PromiseLike<Result> {
    on(event: 'response', fn: (client: Client, statusCode: number, resBytes: number, responseTime: number) => void): void;
    stop(): void;
  }
  function autocannon(opts: Options): Instance;
  export default autocannon;
}

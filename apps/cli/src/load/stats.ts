// What a load run measured: latency per route (as the client saw it, body read included), the
// statuses answered, requests that got no answer at all (refused, reset, timed out), and the
// answers a well-behaved client did not expect. Percentiles are nearest-rank.
import { percentile, round } from '../bench/figures.ts';

export interface RouteSummary {
  route: string;
  count: number;
  p50: number;
  p95: number;
  max: number;
  statuses: Record<string, number>;
}

export interface LoadSummary {
  /** Seconds from the first request of the run to the last answer. */
  seconds: number;
  requests: number;
  /** Answered requests per second over the run. */
  throughput: number;
  statuses: Record<string, number>;
  /** Answers with a status of 500 or more. */
  serverErrors: number;
  /** Requests that got no HTTP answer (connection refused or reset, the client's timeout). */
  noAnswer: number;
  /** Answers the client did not expect (a 4xx it did nothing to deserve, a body of the wrong shape). */
  unexpected: number;
  /** The slowest 503 answer, ms (how fast the API says the database is away); 0 when none. */
  slowest503: number;
  /** Writes the client gave up on without an answer: their outcome is unknown to the ledger. */
  unresolvedWrites: number;
  /** Each distinct `detail` of the 503 answers, with how many; and how many carried Retry-After. */
  unavailable: { details: Record<string, number>; withRetryAfter: number };
  routes: RouteSummary[];
  /** Up to 20 examples of 5xx, unexpected answers and lost requests, for the report. */
  samples: string[];
}

export class LoadStats {
  private readonly latencies = new Map<string, number[]>();
  private readonly routeStatuses = new Map<string, Map<string, number>>();
  private readonly statusCounts = new Map<string, number>();
  private readonly examples: string[] = [];
  private first = Number.POSITIVE_INFINITY;
  private last = 0;
  private requests = 0;
  private serverErrors = 0;
  private noAnswer = 0;
  private unexpected = 0;
  private slowest503 = 0;
  private unresolvedWrites = 0;
  private readonly details503 = new Map<string, number>();
  private retryAfter503 = 0;

  /** One answered request. */
  answered(route: string, status: number, startedAt: number, ms: number): void {
    this.requests++;
    this.first = Math.min(this.first, startedAt);
    this.last = Math.max(this.last, startedAt + ms);
    const list = this.latencies.get(route);
    if (list) list.push(ms);
    else this.latencies.set(route, [ms]);
    const key = String(status);
    this.statusCounts.set(key, (this.statusCounts.get(key) ?? 0) + 1);
    const perRoute = this.routeStatuses.get(route) ?? new Map<string, number>();
    perRoute.set(key, (perRoute.get(key) ?? 0) + 1);
    this.routeStatuses.set(route, perRoute);
    if (status >= 500) this.serverErrors++;
    if (status === 503) this.slowest503 = Math.max(this.slowest503, ms);
  }

  /** What a 503 said (its detail, and whether it told the client when to try again). */
  unavailableAnswer(detail: string, retryAfter: boolean): void {
    this.details503.set(detail, (this.details503.get(detail) ?? 0) + 1);
    if (retryAfter) this.retryAfter503++;
  }

  /** A request that got no HTTP answer. */
  lost(route: string, reason: string): void {
    this.noAnswer++;
    const key = 'no answer';
    this.statusCounts.set(key, (this.statusCounts.get(key) ?? 0) + 1);
    this.sample(`${route}: no answer (${reason})`);
  }

  /** A write given up without an answer (its outcome is unknown). */
  unresolved(route: string): void {
    this.unresolvedWrites++;
    this.sample(`${route}: given up without an answer`);
  }

  /** An answer the client did not expect; `what` says which and why. */
  surprise(what: string): void {
    this.unexpected++;
    this.sample(what);
  }

  sample(what: string): void {
    if (this.examples.length < 20) this.examples.push(what);
  }

  summary(): LoadSummary {
    const seconds = this.requests > 0 ? (this.last - this.first) / 1000 : 0;
    const routes: RouteSummary[] = [...this.latencies.entries()]
      .map(([route, xs]) => ({
        route,
        count: xs.length,
        p50: round(percentile(xs, 50)),
        p95: round(percentile(xs, 95)),
        max: round(Math.max(...xs)),
        statuses: Object.fromEntries([...(this.routeStatuses.get(route) ?? new Map<string, number>()).entries()].sort()),
      }))
      .sort((a, b) => a.route.localeCompare(b.route));
    return {
      seconds: round(seconds),
      requests: this.requests,
      throughput: seconds > 0 ? round(this.requests / seconds) : 0,
      statuses: Object.fromEntries([...this.statusCounts.entries()].sort()),
      serverErrors: this.serverErrors,
      noAnswer: this.noAnswer,
      unexpected: this.unexpected,
      slowest503: round(this.slowest503),
      unresolvedWrites: this.unresolvedWrites,
      unavailable: { details: Object.fromEntries(this.details503), withRetryAfter: this.retryAfter503 },
      routes,
      samples: [...this.examples],
    };
  }
}

/** The summary as a few lines a person can read (the CLI and the bench's progress output). */
export function formatSummary(s: LoadSummary): string {
  const lines = [
    `${s.requests} requests in ${s.seconds} s = ${s.throughput} req/s; statuses ${JSON.stringify(s.statuses)}; 5xx ${s.serverErrors}, no answer ${s.noAnswer}, unexpected ${s.unexpected}, unresolved writes ${s.unresolvedWrites}, slowest 503 ${s.slowest503} ms`,
    `${'route'.padEnd(38)} ${'count'.padStart(6)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)} ${'max ms'.padStart(8)}  statuses`,
    ...s.routes.map((r) => `${r.route.padEnd(38)} ${String(r.count).padStart(6)} ${String(r.p50).padStart(8)} ${String(r.p95).padStart(8)} ${String(r.max).padStart(8)}  ${JSON.stringify(r.statuses)}`),
  ];
  if (s.samples.length > 0) lines.push('examples:', ...s.samples.map((x) => `  ${x}`));
  return lines.join('\n');
}

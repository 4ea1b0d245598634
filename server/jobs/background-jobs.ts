import PgBoss from "pg-boss";
import type { Db } from "../db/client";
import { providerOf } from "../db/database-url";
import type { Gateway } from "../gateway/create-gateway";
import { logger } from "../logger";
import { signpostMetrics } from "../metrics/signpost-metrics";
import { expireApprovals } from "./expire-approvals";
import { pruneRecords } from "./prune-records";
import { reconcileEffects } from "./reconcile-effects";

/** One background job: what it is called, how often it is due, and what one run does. */
export interface JobSpec {
  name: string;
  everyMs: number;
  /** One run; returns what it did (counts by result), for the log and the metrics. */
  run(): Promise<Record<string, number>>;
}

export type SignpostJobOptions = {
  /** Seconds between reconcile and expiry runs (SIGNPOST_JOBS_INTERVAL_S). */
  intervalS: number;
  /** SIGNPOST_AUDIT_RETENTION_DAYS; 0 keeps audit rows forever. */
  auditRetentionDays: number;
  /** Seconds between prune runs; default an hour. */
  pruneEveryS?: number;
  /** An action checked and not found is asked about again after this long (default 10 minutes). */
  recheckAfterMs?: number;
};

/** Signpost's background jobs: reconcile effects, expire approvals, prune what outlived its use. */
export function signpostJobs(
  db: Db,
  gateway: Pick<Gateway, "reconcileEffect" | "recordAudit">,
  options: SignpostJobOptions,
): JobSpec[] {
  return [
    {
      name: "reconcile-effects",
      everyMs: options.intervalS * 1000,
      run: async () =>
        reconcileEffects(db, gateway.reconcileEffect, { recheckAfterMs: options.recheckAfterMs }),
    },
    {
      name: "expire-approvals",
      everyMs: options.intervalS * 1000,
      run: async () => expireApprovals(db, gateway.recordAudit),
    },
    {
      name: "prune-records",
      everyMs: (options.pruneEveryS ?? 3_600) * 1000,
      run: async () => pruneRecords(db, { auditRetentionDays: options.auditRetentionDays }),
    },
  ];
}

/** Runs one job once: metrics and a log line around it; a failure is logged and counted, never thrown. */
export async function runJob(job: JobSpec, via: "pg-boss" | "in-process"): Promise<void> {
  const metrics = signpostMetrics();
  const started = performance.now();
  try {
    const report = await job.run();
    const seconds = (performance.now() - started) / 1000;
    metrics.jobRuns.inc({ job: job.name, outcome: "ok" });
    metrics.jobDuration.observe({ job: job.name }, seconds);
    let did = 0;
    for (const [result, count] of Object.entries(report)) {
      if (count > 0) metrics.jobItems.inc({ job: job.name, result }, count);
      did += count;
    }
    // Quiet when there was nothing to do: a run every 30 s on every instance adds up.
    logger[did > 0 ? "info" : "debug"](
      { event: "job.run", job: job.name, via, ...report, ms: Math.round(seconds * 1000) },
      `job ${job.name} ran`,
    );
  } catch (error) {
    metrics.jobRuns.inc({ job: job.name, outcome: "failed" });
    logger.warn(
      {
        event: "job.failed",
        job: job.name,
        via,
        err: error instanceof Error ? error.message : String(error),
      },
      `job ${job.name} failed; it runs again at its next turn`,
    );
  }
}

export interface BackgroundJobs {
  via: "pg-boss" | "in-process";
  /** Stops scheduling, lets a run in progress finish (bounded by `timeoutMs`), releases connections. */
  stop(timeoutMs?: number): Promise<void>;
}

/**
 * Starts the jobs for the database at `url`. PostgreSQL: on pg-boss (its own `pgboss` schema in
 * the same database), so with several instances each run happens on one of them: every instance
 * offers a run per interval with `sendThrottled` (one job per time slot, whoever sends first)
 * and works the queue; a job taken by an instance that dies is expired by pg-boss and the next
 * slot's run goes on elsewhere. SQLite (one instance): the same jobs on timers in this process,
 * never two runs of one job at once. Every job is idempotent, so a run more than planned is
 * harmless.
 */
export async function startBackgroundJobs(url: string, jobs: JobSpec[]): Promise<BackgroundJobs> {
  return providerOf(url) === "postgres" ? startOnPgBoss(url, jobs) : startInProcess(jobs);
}

function startInProcess(jobs: JobSpec[]): BackgroundJobs {
  const timers: NodeJS.Timeout[] = [];
  const running = new Set<Promise<void>>();
  let stopped = false;
  for (const job of jobs) {
    let busy = false;
    const tick = () => {
      if (busy || stopped) return;
      busy = true;
      const run = runJob(job, "in-process").finally(() => {
        busy = false;
        running.delete(run);
      });
      running.add(run);
    };
    // A first run soon after start (what a crash left behind is reconciled at once), then on the interval.
    timers.push(setTimeout(tick, Math.min(1_000, job.everyMs)).unref());
    timers.push(setInterval(tick, job.everyMs).unref());
  }
  return {
    via: "in-process",
    async stop(timeoutMs = 10_000) {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      await Promise.race([Promise.all(running), new Promise((r) => setTimeout(r, timeoutMs).unref())]);
    },
  };
}

/**
 * Errors of instances setting pg-boss up on one database at the same moment (its schema, our
 * queues): a deadlock, a duplicate object, a serialization failure. The loser tries again.
 */
const SETUP_RACES = new Set(["40P01", "40001", "23505", "42P06", "42P07", "42710"]);

async function startBoss(url: string, jobs: JobSpec[]): Promise<PgBoss> {
  for (let attempt = 1; ; attempt++) {
    const boss = new PgBoss({
      connectionString: url,
      max: 3,
      application_name: "signpost-jobs",
      // Our runs are offered by the tickers below (seconds, not cron minutes).
      schedule: false,
    });
    boss.on("error", (error) => logger.warn({ err: error.message }, "pg-boss error"));
    try {
      await boss.start();
      for (const job of jobs) {
        const slotS = Math.max(1, Math.round(job.everyMs / 1000));
        // Standard policy: a job taken by an instance that was killed holds nothing up; it
        // expires (expireInSeconds) while the next slot's run goes on elsewhere. No retries:
        // that is the next slot. pg-boss refuses an expiry of 24 h or more, which five slots of a long
        // SIGNPOST_JOBS_INTERVAL_S (the schema allows up to a day) would exceed.
        await boss.createQueue(job.name, {
          name: job.name,
          policy: "standard",
          retryLimit: 0,
          expireInSeconds: Math.min(23 * 3_600, Math.max(60, slotS * 5)),
          retentionMinutes: 60,
        });
      }
      return boss;
    } catch (error) {
      await boss.stop({ graceful: false, close: true, wait: true, timeout: 1_000 }).catch(() => undefined);
      const code = (error as { code?: string }).code ?? "";
      if (!SETUP_RACES.has(code) || attempt >= 5) throw error;
      logger.debug({ code, attempt }, "pg-boss setup raced another instance; trying again");
      await new Promise((r) => setTimeout(r, 100 * attempt + Math.random() * 200));
    }
  }
}

async function startOnPgBoss(url: string, jobs: JobSpec[]): Promise<BackgroundJobs> {
  const boss = await startBoss(url, jobs);
  const tickers: NodeJS.Timeout[] = [];
  for (const job of jobs) {
    const slotS = Math.max(1, Math.round(job.everyMs / 1000));
    await boss.work(job.name, { pollingIntervalSeconds: Math.min(2, slotS), batchSize: 1 }, async () => {
      await runJob(job, "pg-boss");
    });
    const offer = () =>
      void boss
        .sendThrottled(job.name, {}, { retryLimit: 0 }, slotS)
        .catch((error) =>
          logger.warn({ err: (error as Error).message, job: job.name }, "could not offer a job run"),
        );
    offer();
    tickers.push(setInterval(offer, job.everyMs).unref());
  }
  return {
    via: "pg-boss",
    async stop(timeoutMs = 10_000) {
      for (const ticker of tickers) clearInterval(ticker);
      await boss.stop({ graceful: true, wait: true, close: true, timeout: timeoutMs });
    },
  };
}

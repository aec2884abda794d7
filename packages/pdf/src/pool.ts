// PDFs are rendered on worker threads (piscina), never on the thread that answers requests: a
// 500-line invoice is hundreds of milliseconds of CPU, and a render that throws where nothing can
// catch it (a decoder's callback) ends only its worker. Each render has a time limit (the worker
// is stopped when it passes), the queue is bounded, and a worker's heap is capped.
//
//   render(input) → the PDF's bytes, or a PdfRenderError:
//     'timeout'  the render (queue wait included) took longer than timeoutMs; its worker was stopped
//     'busy'     maxQueue renders were already waiting
//     'failed'   the render threw, or its worker died (out of memory, an uncaught error)
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { PdfInput } from './types.ts';
import type { WorkerInput } from './worker.ts';

export type PdfRenderErrorCode = 'timeout' | 'busy' | 'failed';

export class PdfRenderError extends Error {
  readonly code: PdfRenderErrorCode;
  constructor(code: PdfRenderErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PdfRenderError';
    this.code = code;
  }
}

export interface PdfPoolOptions {
  /** Worker threads at most. Default: one fewer than the CPUs (at least 1, at most 4), leaving one for requests. */
  threads?: number;
  /** A render's time limit, from the moment it is asked for. Default 20 s. */
  timeoutMs?: number;
  /** Renders that may wait for a thread (beyond one running per thread); more are refused as 'busy'. Default 32. */
  maxQueue?: number;
  /** The heap limit of each worker, MB. Default 512. */
  maxHeapMb?: number;
  /** An idle worker stops after this long (and the next render starts one). Default 60 s. */
  idleTimeoutMs?: number;
}

export interface PdfPool {
  render(input: PdfInput): Promise<Buffer>;
  /** Stops the workers; renders still running fail. */
  close(): Promise<void>;
  /** Worker threads running now. */
  readonly threads: number;
}

export const defaultPdfThreads = (): number => Math.max(1, Math.min(4, availableParallelism() - 1));

const WORKER = new URL('./worker.ts', import.meta.url).href;

export function createPdfPool(options: PdfPoolOptions = {}): PdfPool {
  const timeoutMs = options.timeoutMs ?? 20_000;
  const threads = options.threads ?? defaultPdfThreads();
  // Counted here rather than left to piscina's maxQueue, which does not count tasks that arrive
  // while the first threads are starting.
  const maxOutstanding = threads + (options.maxQueue ?? 32);
  let outstanding = 0;
  let pool: Piscina | undefined;
  // Made on the first render: a process that never renders starts no thread.
  const piscina = (): Piscina =>
    (pool ??= new Piscina({
      filename: WORKER,
      minThreads: 0,
      maxThreads: threads,
      idleTimeout: options.idleTimeoutMs ?? 60_000,
      // Tasks are whole renders; a thread waits on its own event loop between them.
      atomics: 'disabled',
      resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb ?? 512 },
    }));

  return {
    async render(input) {
      if (outstanding >= maxOutstanding) throw new PdfRenderError('busy', 'Too many PDFs are waiting to be rendered');
      outstanding += 1;
      const task: WorkerInput = { ...input, logo: input.logo ?? null };
      const signal = AbortSignal.timeout(timeoutMs);
      try {
        const bytes = (await piscina().run(task, { signal })) as Uint8Array;
        return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      } catch (e) {
        if (signal.aborted) throw new PdfRenderError('timeout', `The PDF took longer than ${timeoutMs} ms to render`, { cause: e });
        throw new PdfRenderError('failed', `The PDF could not be rendered: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
      } finally {
        outstanding -= 1;
      }
    },
    async close() {
      const p = pool;
      pool = undefined;
      await p?.destroy();
    },
    get threads() {
      return pool?.threads.length ?? 0;
    },
  };
}

let shared: PdfPool | undefined;

/** One pool for the process (the API's default renderer): its threads stop when idle, so it holds nothing open. */
export function sharedPdfPool(): PdfPool {
  shared ??= createPdfPool();
  return shared;
}

import { monitorEventLoopDelay } from 'node:perf_hooks';

export interface ProcessMetrics {
  rssMb: number;
  heapUsedMb: number;
  /** Open handles and requests (sockets, timers, files): should return to baseline after load. */
  handles: number;
  eventLoopDelayP99Ms: number;
  eventLoopDelayMaxMs: number;
}

/**
 * When the server runs as a child with an IPC channel (the soak and bench scripts start it
 * so), it answers `{type: 'metrics'}` with its memory, handles and event-loop delay since
 * the last question. Nothing is exposed over HTTP.
 */
export function answerMetricsOverIpc(): void {
  if (!process.send) return;
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  process.on('message', (message: unknown) => {
    if ((message as { type?: string } | null)?.type !== 'metrics') return;
    const memory = process.memoryUsage();
    const metrics: ProcessMetrics = {
      rssMb: memory.rss / 2 ** 20,
      heapUsedMb: memory.heapUsed / 2 ** 20,
      handles: process.getActiveResourcesInfo().length,
      eventLoopDelayP99Ms: delay.percentile(99) / 1e6,
      eventLoopDelayMaxMs: delay.max / 1e6,
    };
    delay.reset();
    process.send?.({ type: 'metrics', metrics });
  });
  // The channel must not keep a finished server alive.
  process.channel?.unref();
}

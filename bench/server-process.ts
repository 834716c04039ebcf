// Starts the built server as a child process with an IPC channel, for the soak and bench
// scripts: they drive it from outside and ask it for its memory and event-loop figures.
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { ProcessMetrics } from '../apps/server/src/metrics/process-metrics.ts';

export const repoRoot = path.resolve(import.meta.dirname, '..');

export interface BenchServer {
  child: ChildProcess;
  url: string;
  metrics(): Promise<ProcessMetrics>;
  stop(): Promise<void>;
}

/**
 * `args`: the server's own (['--cluster'] starts its processes as npm run start:cluster does).
 * `root`: the checkout whose build runs (another one's, for `npm run bench -- --against DIR`).
 */
export async function startServer(
  env: NodeJS.ProcessEnv,
  port: number,
  args: string[] = [],
  root = repoRoot,
): Promise<BenchServer> {
  // BENCH_CPU_PROF=DIR: each server process writes a V8 CPU profile there when it exits.
  const profileDir = process.env.BENCH_CPU_PROF;
  const child = fork(path.join(root, 'apps/server/dist/server.js'), args, {
    cwd: root,
    // The V8 flags scripts/start.mjs starts the server with (SERVER_NODE_FLAGS there).
    execArgv: ['--heap-growing-percent=50', ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [])],
    // As `npm start` runs it (scripts/start.mjs): two malloc arenas, a low trim threshold.
    env: {
      MALLOC_ARENA_MAX: '2',
      MALLOC_TRIM_THRESHOLD_: '131072',
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let waited = 0; ; waited += 200) {
    if (child.exitCode !== null) throw new Error('the server exited while starting');
    try {
      if ((await fetch(`${url}/api/healthz`)).ok) break;
    } catch {
      // not yet listening
    }
    if (waited > 60_000) throw new Error('the server did not start within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    child,
    url,
    metrics: () =>
      new Promise((resolve) => {
        const onMessage = (message: { type?: string; metrics?: ProcessMetrics }) => {
          if (message.type !== 'metrics' || !message.metrics) return;
          child.off('message', onMessage);
          resolve(message.metrics);
        };
        child.on('message', onMessage);
        child.send({ type: 'metrics' });
      }),
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Registers an account over HTTP and returns its session cookie. */
export async function signUp(url: string, username: string): Promise<string> {
  const response = await fetch(`${url}/api/account/addAccount`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, email: `${username}@bench.example`, password: 'bench-password' }),
  });
  const cookie = response.headers.getSetCookie()[0]?.split(';')[0];
  if (!response.ok || !cookie)
    throw new Error(`sign-up of ${username} failed: ${response.status} ${await response.text()}`);
  return cookie;
}

export async function postJson(url: string, cookie: string, body: unknown): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify(body),
  });
}

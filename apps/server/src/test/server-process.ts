import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../../..');
const serverEntry = path.resolve(here, '../server.ts');

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  output: () => string;
  /** Resolves as soon as the server's output (stdout and stderr) satisfies `done`. */
  outputUntil: (done: (output: string) => boolean) => Promise<void>;
  exited: Promise<number | null>;
}

/**
 * A port for a test's own server, 26000-31999: below Linux's ephemeral range (32768-60999),
 * which outgoing connections (the tests' own, PostgreSQL's clients) take their local ports
 * from, and above this machine's services (RabbitMQ's inter-node port is 25672: a test server
 * drew it once, EADDRINUSE).
 */
export const randomTestPort = () => 26_000 + Math.floor(Math.random() * 6_000);

/**
 * Starts the real server (src/server.ts) as its own process and waits until it answers.
 * `imports`: modules loaded before the server (test instruments such as worker-terminator.ts).
 */
export async function startServerProcess(
  env: NodeJS.ProcessEnv,
  options: { imports?: string[] } = {},
): Promise<ServerProcess> {
  const port = randomTestPort();
  const imports = (options.imports ?? []).flatMap((module) => ['--import', module]);
  // node itself runs the server (tsx only as a loader), so signals reach the server process.
  const child = spawn(process.execPath, ['--import', 'tsx', ...imports, serverEntry], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_MULTIPLIER: '1000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const waiting = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    for (const check of waiting) check();
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const outputUntil = (done: (text: string) => boolean) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (!done(output)) return;
        waiting.delete(check);
        resolve();
      };
      waiting.add(check);
      check();
    });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early: ${output}`);
    try {
      if ((await fetch(`${url}/api/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not start: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { child, url, output: () => output, outputUntil, exited };
}

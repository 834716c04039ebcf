// PostgreSQL's client programs (pg_dump, psql), which backups on PostgreSQL use. They find the
// server through libpq's environment, never a URL on their command line, where `ps` would show
// its password to every user of the machine.
import { spawn } from 'node:child_process';
import path from 'node:path';

/** libpq's environment for a postgres:// URL (host, port, user, password, database, sslmode). */
export function postgresToolEnv(url: string): NodeJS.ProcessEnv {
  const parsed = new URL(url);
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of ['PGHOST', 'PGPORT', 'PGUSER', 'PGPASSWORD', 'PGDATABASE', 'PGSSLMODE', 'PGOPTIONS'])
    delete env[key];
  const host = parsed.searchParams.get('host') ?? decodeURIComponent(parsed.hostname).replace(/^\[(.*)\]$/, '$1');
  if (host) env.PGHOST = host;
  if (parsed.port) env.PGPORT = parsed.port;
  if (parsed.username) env.PGUSER = decodeURIComponent(parsed.username);
  if (parsed.password) env.PGPASSWORD = decodeURIComponent(parsed.password);
  const database = decodeURIComponent(parsed.pathname.slice(1));
  if (database) env.PGDATABASE = database;
  const sslmode = parsed.searchParams.get('sslmode');
  if (sslmode) env.PGSSLMODE = sslmode;
  return env;
}

/** The path of a client program: in `binDir` (PG_BIN_DIR) when given, else found on PATH. */
export const toolPath = (name: string, binDir: string | undefined): string => (binDir ? path.join(binDir, name) : name);

/** Runs a client program to its end and returns its output; a failure says what it printed. */
export function runTool(
  name: string,
  args: string[],
  options: { binDir?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(toolPath(name, options.binDir), args, {
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let errors = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (output += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (errors += text));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT'
          ? new Error(
              `${name} was not found: backups on PostgreSQL need its client programs (Debian: apt-get install postgresql-client), or PG_BIN_DIR set to their directory`,
            )
          : error,
      ),
    );
    child.on('close', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`${name} failed (exit ${code}): ${errors.trim()}`)),
    );
  });
}

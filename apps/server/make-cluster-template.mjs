// Run by build.mjs in a process of its own: makes dist/pgdata-template, a new PGlite cluster
// (initdb's output, opened and closed once), which a server copies into an empty data
// directory instead of running initdb in its own process (src/db/durable-node-fs.ts,
// copyClusterTemplate): initdb peaks at about 800 MB, here instead of in the server (issue 39).
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';

const target = fileURLToPath(new URL('./dist/pgdata-template', import.meta.url));
const staging = `${target}.new`;
fs.rmSync(staging, { recursive: true, force: true });
const db = await PGlite.create({ fs: new NodeFS(staging) });
await db.close();
// What a running server leaves: not part of a cluster at rest.
for (const file of ['postmaster.pid', 'postmaster.opts']) fs.rmSync(`${staging}/${file}`, { force: true });
fs.rmSync(target, { recursive: true, force: true });
fs.renameSync(staging, target);

// Neurons' embedded engine: PGlite on a persistent data dir, served on a private Unix socket.
// Copied into each data dir's work dir at every start (py-pglite runs `node pglite_manager.js`
// there); the paths come from engine.json beside it, written by core/store/embedded.py.
import fs, { readFileSync, existsSync, unlinkSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { vector } from '@electric-sql/pglite-pgvector';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

const config = JSON.parse(readFileSync('engine.json', 'utf8'));
// Before PGlite compiles its WASM: how V8 compiles it (see V8_FLAGS in core/store/embedded.py).
for (const flag of config.v8Flags || []) setFlagsFromString(flag);

// Postgres files stay private (no group/other bits): PGlite's file system sets the modes it keeps
// in memory with explicit chmods, which the process umask (0077, set by our owner) cannot mask.
const PRIVATE_BITS = 0o077;
for (const name of ['chmodSync', 'fchmodSync', 'lchmodSync']) {
  const real = fs[name];
  if (typeof real === 'function') {
    fs[name] = (target, mode, ...rest) =>
      real(target, typeof mode === 'number' ? mode & ~PRIVATE_BITS : mode, ...rest);
  }
}
const log = (msg) => process.stdout.write(`[engine ${process.pid}] ${msg}\n`);

let db = null;
let server = null;
let stopping = false;

async function shutdown(reason, code = 0) {
  if (stopping) return;
  stopping = true;
  log(`stopping: ${reason}`);
  try {
    if (server) await server.stop();
    if (db) {
      await db.exec('CHECKPOINT');
      await db.close();
    }
  } catch (err) {
    log(`error while stopping: ${err}`);
    code = code || 1;
  }
  try { if (existsSync(config.socketPath)) unlinkSync(config.socketPath); } catch {}
  process.exit(code);
}

process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));

// Never outlive the owner: when the Python process that started us dies, we are re-parented.
setInterval(() => {
  if (process.ppid !== config.ownerPid) shutdown(`owner ${config.ownerPid} is gone`);
}, 200).unref();

try {
  db = await PGlite.create({
    dataDir: config.dataDir,
    extensions: { vector, pg_trgm },
    startParams: [...PGlite.defaultStartParams, ...config.startParams],
  });
  if (existsSync(config.socketPath)) unlinkSync(config.socketPath);
  server = new PGLiteSocketServer({ db, path: config.socketPath, maxConnections: 4 });
  await server.start();
  log(`serving ${config.dataDir} on ${config.socketPath}`);
} catch (err) {
  log(`failed to start: ${err && err.stack || err}`);
  process.exit(1);
}

// Issue 15, item 11: a session ends for good. Expired rows are deleted by a periodic sweep
// (a bounded number per run); a socket does not outlive its session's expiry; and a socket
// whose handshake raced a sign-out is disconnected even though it joined its rooms after the
// sign-out disconnected the session's sockets. Issue 31 item 12: likewise, a socket whose
// handshake read the role just before a demotion leaves the moderators' room it then joined.
import { randomBytes } from 'node:crypto';
import { lt, sql } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../db/schema.ts';
import { DATABASE_KINDS } from '../test/databases.ts';
import { accountIdOf, registerUser } from '../test/factories.ts';
import { rooms } from '../realtime/rooms.ts';
import { connected, openSocket, until } from '../test/sockets.ts';
import { startTestApp, type TestApp } from '../test/test-app.ts';

/** Resolves with the reason once the socket is disconnected, or null if it is not within `ms`. */
function disconnection(socket: Socket, ms = 15_000): Promise<string | null> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), ms);
    socket.once('disconnect', (reason) => {
      clearTimeout(timer);
      resolve(reason);
    });
  });
}

describe.each(DATABASE_KINDS)('session lifetime on %s', (kind) => {
  describe('expired sessions', () => {
    let t: TestApp;
    beforeAll(async () => {
      // A sweep every 100 ms.
      t = await startTestApp(kind, { configure: (config) => void (config.sessionSweepMs = 100) });
    });
    afterAll(async () => t.close());

    const expiredCount = async () =>
      (
        await t.app.db
          .select({ n: sql<number>`count(*)::int` })
          .from(sessions)
          .where(lt(sessions.expiresAt, sql`now()`))
      )[0]?.n ?? 0;

    it('are deleted by a periodic sweep, and live ones are kept', async () => {
      const user = await registerUser(t.app);
      const accountId = await accountIdOf(t.app, user.username);
      const past = new Date(Date.now() - 60_000);
      const rows = Array.from({ length: 2_500 }, () => ({
        tokenHash: randomBytes(16).toString('hex'),
        accountId,
        expiresAt: past,
      }));
      for (let i = 0; i < rows.length; i += 500) await t.app.db.insert(sessions).values(rows.slice(i, i + 500));
      await until(async () => (await expiredCount()) === 0, 15_000);
      expect(await expiredCount()).toBe(0);
      // The user's own, live session survived every sweep.
      expect((await t.app.inject({ url: '/api/account/me', headers: { cookie: user.cookie } })).statusCode).toBe(200);
    });
  });

  describe('a sweep', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp(kind); // the periodic sweep runs every 10 minutes: only ours here
    });
    afterAll(async () => t.close());

    it('deletes at most 1,000 expired sessions', async () => {
      const user = await registerUser(t.app);
      const accountId = await accountIdOf(t.app, user.username);
      const past = new Date(Date.now() - 60_000);
      const rows = Array.from({ length: 1_500 }, () => ({
        tokenHash: randomBytes(16).toString('hex'),
        accountId,
        expiresAt: past,
      }));
      for (let i = 0; i < rows.length; i += 500) await t.app.db.insert(sessions).values(rows.slice(i, i + 500));
      expect(await t.app.sessions.sweepExpired()).toBe(1_000);
      expect(await t.app.sessions.sweepExpired()).toBe(500);
      expect(await t.app.sessions.sweepExpired()).toBe(0);
      expect((await t.app.inject({ url: '/api/account/me', headers: { cookie: user.cookie } })).statusCode).toBe(200);
    });
  });

  describe('a socket whose session expires', () => {
    let t: TestApp;
    let socket: Socket | undefined;
    beforeAll(async () => {
      // Sessions of 4 s (never slid: sliding starts an hour into a 30-day session), checked every 100 ms.
      t = await startTestApp(kind, {
        configure: (config) => {
          config.sessionTtlMs = 4_000;
          config.socketSessionCheckMs = 100;
        },
      });
    });
    afterEach(() => void socket?.disconnect());
    afterAll(async () => t.close());

    it('is disconnected when the session ends', async () => {
      const user = await registerUser(t.app);
      socket = openSocket(t.url, { cookie: user.cookie });
      const ended = disconnection(socket);
      await new Promise<void>((resolve) => socket!.once('connect', () => resolve()));
      expect(await ended).toBe('io server disconnect');
      expect((await t.app.inject({ url: '/api/account/me', headers: { cookie: user.cookie } })).statusCode).toBe(401);
    });
  });

  describe('a socket whose handshake races a sign-out', () => {
    let t: TestApp;
    let socket: Socket | undefined;
    beforeAll(async () => {
      t = await startTestApp(kind);
    });
    afterEach(() => void socket?.disconnect());
    afterAll(async () => t.close());

    it('is disconnected though it joined its rooms after the sign-out disconnected the session', async () => {
      const user = await registerUser(t.app);
      // A hold after the session lookup (the app's own middleware ran first): the handshake
      // has found the session live, and joins its rooms only once the sign-out is done.
      let arrived!: () => void;
      const atHold = new Promise<void>((resolve) => (arrived = resolve));
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      t.app.realtime.io.use((handshake, next) => {
        expect(handshake.data.tokenHash).not.toBeNull();
        arrived();
        void released.then(() => next());
      });
      socket = openSocket(t.url, { cookie: user.cookie });
      const ended = disconnection(socket);
      await atHold;
      const signedOut = await t.app.inject({
        method: 'POST',
        url: '/api/account/logout',
        headers: { cookie: user.cookie },
      });
      expect(signedOut.statusCode).toBe(200);
      release();
      expect(await ended).toBe('io server disconnect');
    });
  });

  describe('a socket whose handshake races a demotion', () => {
    let t: TestApp;
    let socket: Socket | undefined;
    let witness: Socket | undefined;
    beforeAll(async () => {
      t = await startTestApp(kind);
    });
    afterEach(() => {
      socket?.disconnect();
      witness?.disconnect();
    });
    afterAll(async () => t.close());

    it("leaves the moderators' room though it joined after the demotion seated the account's sockets", async () => {
      const admin = await registerUser(t.app);
      const moderator = await registerUser(t.app);
      const setRole = (role: string) =>
        t.app.inject({
          method: 'PUT',
          url: `/api/admin/users/${moderator.username}/role`,
          headers: { cookie: admin.cookie },
          payload: { role },
        });
      expect((await setRole('moderator')).statusCode).toBe(200);
      // A hold after the session lookup: the second handshake has read the role 'moderator',
      // and joins its rooms only once the demotion is done. The first (the witness) goes on.
      let arrived!: () => void;
      const atHold = new Promise<void>((resolve) => (arrived = resolve));
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const handshakes: string[] = [];
      t.app.realtime.io.use((handshake, next) => {
        if (handshake.data.username !== moderator.username) return next();
        expect(handshake.data.role).toBe('moderator');
        handshakes.push(handshake.id);
        if (handshakes.length === 1) return next();
        arrived();
        void released.then(() => next());
      });
      const moderating = async (id: string | undefined) =>
        (await t.app.realtime.io.in(rooms.moderators).fetchSockets()).some((seated) => seated.id === id);
      // A socket of the account from before, seated among the moderators: it shows when the
      // demotion has unseated the account's sockets here (through PostgreSQL, a moment later).
      witness = openSocket(t.url, { cookie: moderator.cookie });
      await connected(witness);
      expect(await moderating(handshakes[0])).toBe(true);
      socket = openSocket(t.url, { cookie: moderator.cookie });
      await atHold;
      expect((await setRole('member')).statusCode).toBe(200);
      await until(async () => !(await moderating(handshakes[0])), 5_000);
      expect(await moderating(handshakes[0])).toBe(false);
      release();
      await connected(socket);
      await until(async () => !(await moderating(handshakes[1])), 5_000);
      expect(await moderating(handshakes[1])).toBe(false);
      expect(socket.connected).toBe(true);
    });
  });
});

// The attacks of the drill (issue 23's items 1, 2, 3, 4 and 6), each from one address
// (127.0.0.1) for a bounded time, each answering what the attacker saw, counted by outcome.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import WebSocket from 'ws';

export const ATTACKER_ADDRESS = '127.0.0.1';

export interface Target {
  /** http://127.0.0.1:PORT */
  url: string;
  /** The member's session cookie (item 4's attacker is a member). */
  memberCookie: string;
  /** The big question page item 4's member built. */
  bigQid: string;
  /** Item 7's uploaders: enough members to take every upload place of the process. */
  uploaderCookies: string[];
}

/** Outcomes by name (an HTTP status, a close code, an error code) and how often each came. */
export type Outcomes = Record<string, number>;

const tally = (outcomes: Outcomes, outcome: string) => (outcomes[outcome] = (outcomes[outcome] ?? 0) + 1);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One HTTP request; resolves with its status (or error code) as soon as either is known. */
function send(
  target: Target,
  options: { method: string; path: string; agent?: http.Agent; headers?: Record<string, string>; body?: Buffer },
): Promise<string> {
  return new Promise((resolve) => {
    const request = http.request(`${target.url}${options.path}`, {
      method: options.method,
      agent: options.agent ?? false,
      localAddress: options.agent ? undefined : ATTACKER_ADDRESS,
      headers: {
        ...options.headers,
        ...(options.body ? { 'content-type': 'application/json', 'content-length': options.body.length } : {}),
      },
      timeout: 30_000,
    });
    let settled = false;
    const settle = (outcome: string) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    request.on('response', (response) => {
      response.resume();
      response.on('end', () => settle(`HTTP ${response.statusCode}`));
      response.on('error', () => settle(`HTTP ${response.statusCode}`));
    });
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', (error: NodeJS.ErrnoException) => settle(error.code ?? error.message));
    request.end(options.body);
  });
}

/** `workers` loops, each running `step` until `ms` have passed. */
async function during(ms: number, workers: number, step: () => Promise<void>): Promise<void> {
  const until = performance.now() + ms;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (performance.now() < until) await step();
    }),
  );
}

/**
 * Item 1: anonymous engine.io polling handshakes as fast as 64 keep-alive connections get
 * answers, none ever used. Each one the server accepts is a session it keeps until dropped.
 */
export async function pollingHandshakeFlood(target: Target, ms: number): Promise<Outcomes> {
  const outcomes: Outcomes = {};
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64, localAddress: ATTACKER_ADDRESS });
  let n = 0;
  await during(ms, 64, async () => {
    tally(outcomes, await send(target, { method: 'GET', path: `/socket.io/?EIO=4&transport=polling&t=${n++}`, agent }));
  });
  agent.destroy();
  return outcomes;
}

/**
 * Item 2: slow POSTs. Up to 2,000 connections open at once (opened 100 every 100 ms, again as
 * the server closes them), each sending a sign-in's headers and then one byte of its body
 * every 5 s, never the whole of it.
 */
export async function slowPosts(target: Target, ms: number): Promise<Outcomes> {
  const outcomes: Outcomes = {};
  const { hostname, port } = new URL(target.url);
  const open = new Set<net.Socket>();
  let peak = 0;
  const openOne = () => {
    const socket = net.connect({ host: hostname, port: Number(port), localAddress: ATTACKER_ADDRESS });
    open.add(socket);
    let answered = false;
    socket.on('connect', () => {
      tally(outcomes, 'connected');
      socket.write(
        `POST /api/account/login HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`,
      );
    });
    socket.on('data', (chunk: Buffer) => {
      if (answered) return;
      answered = true;
      tally(outcomes, `answered ${chunk.toString('latin1').slice(0, 12)}`);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      open.delete(socket);
      if (!answered) tally(outcomes, 'closed unanswered');
    });
  };
  const opener = setInterval(() => {
    for (let i = 0; i < 100 && open.size < 2_000; i++) openOne();
    peak = Math.max(peak, open.size);
  }, 100);
  const drip = setInterval(() => {
    for (const socket of open) if (socket.writable) socket.write(' ');
  }, 5_000);
  await sleep(ms);
  clearInterval(opener);
  clearInterval(drip);
  for (const socket of open) socket.destroy();
  outcomes['most open at once (client side)'] = peak;
  return outcomes;
}

const FRAME_BYTES = 1024 * 1024;
/**
 * Item 3's frames: a 1 MB event, an event nested 100,000 deep, 1 MB of binary, and an event
 * nested as deep as fits in 4 kB (the largest frame a socket may send).
 */
const FRAMES: Array<string | Buffer> = [
  `42["showQuestions",[${'1,'.repeat(FRAME_BYTES / 2)}1]]`,
  `42["showQuestions",${'['.repeat(100_000)}${']'.repeat(100_000)}]`,
  Buffer.alloc(FRAME_BYTES, 7),
  `42["showQuestions",${'['.repeat(2_000)}${']'.repeat(2_000)}]`,
];

/**
 * Item 3: large and nested socket frames. 16 loops, each opening a WebSocket (completing the
 * socket.io handshake as the web app does), sending one of the frames, and waiting for the
 * server to close it (one it does not close within 10 s is given up).
 */
export async function socketFrames(target: Target, ms: number): Promise<Outcomes> {
  const outcomes: Outcomes = {};
  let n = 0;
  await during(ms, 16, async () => {
    const frame = FRAMES[n++ % FRAMES.length]!;
    const ws = new WebSocket(`${target.url.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket`, {
      localAddress: ATTACKER_ADDRESS,
    });
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => ws.terminate(), 10_000);
      ws.on('message', (data: Buffer) => {
        const text = data.toString();
        if (text.startsWith('0')) ws.send('40');
        else if (text.startsWith('40')) ws.send(frame, (error) => error && tally(outcomes, 'send failed'));
        else if (text === '2') ws.send('3');
      });
      ws.on('unexpected-response', (_request, response) => {
        tally(outcomes, `handshake HTTP ${response.statusCode}`);
        ws.terminate();
      });
      ws.on('error', () => undefined);
      ws.on('close', (code) => {
        clearTimeout(timer);
        tally(outcomes, `closed ${code}`);
        resolve();
      });
    });
  });
  return outcomes;
}

/**
 * Item 4: a member who built a big question page votes on it and reads it, once a second
 * (the vote toggles, so every read follows a change).
 */
export async function bigPageVotes(target: Target, ms: number): Promise<Outcomes> {
  const outcomes: Outcomes = {};
  const headers = { cookie: target.memberCookie };
  const vote = Buffer.from(JSON.stringify({ qid: target.bigQid }));
  const until = performance.now() + ms;
  while (performance.now() < until) {
    const started = performance.now();
    tally(outcomes, `vote ${await send(target, { method: 'POST', path: '/api/upvoteQuestion', headers, body: vote })}`);
    const read = await send(target, {
      method: 'GET',
      path: `/api/getQuestionById/${target.bigQid}`,
      headers: { ...headers, 'accept-encoding': 'gzip' },
    });
    tally(outcomes, `read ${read}`);
    await sleep(Math.max(0, 1_000 - (performance.now() - started)));
  }
  return outcomes;
}

/** A megabyte of JSON nested half a million deep. */
const NESTED_MEGABYTE = Buffer.from(`${'['.repeat(FRAME_BYTES / 2)}${']'.repeat(FRAME_BYTES / 2)}`);
const BODY_ROUTES = ['/api/addQuestion', '/api/answer/addAnswer', '/api/account/login', '/api/message/addMessage'];

/**
 * Item 6: anonymous 1 MB nested JSON bodies, 8 senders at once, to signed-in routes and to the
 * routes open to visitors (sign-in, PorpChat), each on a new connection.
 */
export async function nestedBodies(target: Target, ms: number): Promise<Outcomes> {
  const outcomes: Outcomes = {};
  let n = 0;
  await during(ms, 8, async () => {
    const path = BODY_ROUTES[n++ % BODY_ROUTES.length]!;
    tally(outcomes, `${path} ${await send(target, { method: 'POST', path, body: NESTED_MEGABYTE })}`);
  });
  return outcomes;
}

/** An image the upload attack sends: its file name and bytes. */
export interface AttackImage {
  name: string;
  bytes: Buffer;
}

/**
 * Item 7's images, made once before the attack (sharp, in the drill's process): as large as
 * allowed and as costly to decode as allowed, and past what is allowed.
 */
export async function uploadAttackImages(): Promise<AttackImage[]> {
  const { default: sharp } = await import('sharp');
  const solid = (width: number, height: number) =>
    sharp({ create: { width, height, channels: 3, background: { r: 40, g: 90, b: 160 } } });
  // 1,250 x 1,250 of noise: a PNG that does not compress, just under 5 MB.
  const noise = randomBytes(1250 * 1250 * 3);
  return [
    {
      name: 'noise.png',
      bytes: await sharp(noise, { raw: { width: 1250, height: 1250, channels: 3 } })
        .png()
        .toBuffer(),
    },
    // 39.7 megapixels of one colour: a few kilobytes that decode to 119 MB.
    { name: 'bomb.png', bytes: await solid(6300, 6300).png({ compressionLevel: 9 }).toBuffer() },
    // A header of 50,000 x 1,000 (50 megapixels): refused before decoding.
    { name: 'wide.png', bytes: await solid(50_000, 1_000).png({ compressionLevel: 9 }).toBuffer() },
    // An animation of 10 frames of 2,000 x 2,000 (40 megapixels over its frames).
    {
      name: 'frames.gif',
      bytes: await sharp(
        await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            sharp({ create: { width: 2_000, height: 2_000, channels: 3, background: { r: 25 * i, g: 90, b: 160 } } })
              .png()
              .toBuffer(),
          ),
        ),
        { join: { animated: true } },
      )
        .gif({ loop: 0 })
        .toBuffer(),
    },
    // 2 MB of noise named .jpg that is not an image at all.
    { name: 'fake.jpg', bytes: noise.subarray(0, 2 * 1024 * 1024) },
  ];
}

/** One multipart upload of an image (field `file`), as the web app sends it. */
function sendUpload(target: Target, cookie: string, image: AttackImage): Promise<string> {
  const boundary = `----drill${Math.random().toString(16).slice(2)}`;
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${image.name}"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    ),
    image.bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return new Promise((resolve) => {
    const request = http.request(`${target.url}/api/uploads`, {
      method: 'POST',
      agent: false,
      localAddress: ATTACKER_ADDRESS,
      headers: {
        cookie,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': body.length,
      },
      timeout: 60_000,
    });
    request.on('response', (response) => {
      response.resume();
      response.on('end', () => resolve(`${image.name} HTTP ${response.statusCode}`));
      response.on('error', () => resolve(`${image.name} HTTP ${response.statusCode}`));
    });
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', (error: NodeJS.ErrnoException) => resolve(`${image.name} ${error.code ?? error.message}`));
    request.end(body);
  });
}

/**
 * Item 7 (issue 37): members (target.uploaderCookies, enough of them to take all 8 places a
 * process keeps for uploads) upload large and decompression-bomb images as fast as the server
 * takes them, 16 at once, each loop sending the next of uploadAttackImages' images as the next
 * member.
 */
export function uploadFlood(images: AttackImage[]) {
  return async (target: Target, ms: number): Promise<Outcomes> => {
    const outcomes: Outcomes = {};
    let n = 0;
    await during(ms, 16, async () => {
      const turn = n++;
      const cookie = target.uploaderCookies[turn % target.uploaderCookies.length]!;
      tally(outcomes, await sendUpload(target, cookie, images[turn % images.length]!));
    });
    return outcomes;
  };
}

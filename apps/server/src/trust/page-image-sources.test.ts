// Trust #23 item 5: a PorpChat 'IMG' message must not make every reader's browser fetch any
// address. The web app shows an image elsewhere only when the reader presses its button, and
// the pages' CSP lets images come only from Porpoise itself and, for pressed ones, https
// (docs/product.md section 4): never http: (a plain-text fetch anyone on the path can read or
// answer, or an intranet address) and never data:.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../test/databases.ts';
import { startTestApp, type TestApp } from '../test/test-app.ts';

/** One directive's sources from a Content-Security-Policy header, or null when it is absent. */
function directive(policy: string, name: string): string[] | null {
  for (const part of policy.split(';')) {
    const [key, ...sources] = part.trim().split(' ').filter(Boolean);
    if (key === name) return sources;
  }
  return null;
}

describe.each(DATABASE_KINDS)("the pages' image sources on %s", (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t.close());

  it("let pages load images only from 'self' and https:, never http: or data:", async () => {
    for (const url of ['/', '/porpchat', '/home', '/no-such-page', '/favicon.svg']) {
      const policy = String((await t.app.inject(url)).headers['content-security-policy']);
      expect(directive(policy, 'img-src'), url).toEqual(["'self'", 'https:']);
      // Nothing else in the policy opens a way around it.
      expect(directive(policy, 'default-src'), url).toEqual(["'self'"]);
      expect(policy, url).not.toContain('http:');
      expect(policy, url).not.toContain('data:');
    }
  });
});

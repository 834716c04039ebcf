import { describe, expect, it } from 'vitest';
import { createLocalSignals } from './signals.ts';

describe('local signals (the embedded database)', () => {
  it('forgetAll tells every handler, on both channels, to forget everything (null)', async () => {
    const signals = createLocalSignals();
    const heard: Array<[string, string | null]> = [];
    signals.subscribe('porpoise_content', (payload) => heard.push(['content', payload]));
    signals.subscribe('porpoise_session', (payload) => heard.push(['session', payload]));
    await signals.publish('porpoise_session', 'a-token-hash');
    signals.forgetAll();
    expect(heard).toEqual([
      ['session', 'a-token-hash'],
      ['content', null],
      ['session', null],
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { announcementText, type AnnouncementKind } from './announcer';

const said = (entries: [AnnouncementKind, string[]][]) => announcementText(new Map(entries));

describe('live announcements (docs/product.md section 12)', () => {
  it('one arrival is named', () => {
    expect(said([['answer', ['ann']]])).toBe('New answer by ann');
    expect(said([['message', ['bob']]])).toBe('New message from bob');
    expect(said([['notification', ['cy answered your question']]])).toBe('cy answered your question');
  });

  it('a burst of one kind reads as one sentence, and kinds in a fixed order', () => {
    expect(said([['answer', ['ann', 'bob', 'cy']]])).toBe('3 new answers');
    expect(said([['message', ['a', 'b']]])).toBe('2 new messages');
    expect(
      said([
        ['notification', ['x', 'y']],
        ['answer', ['ann']],
      ]),
    ).toBe('New answer by ann. 2 new notifications');
    expect(said([])).toBe('');
  });
});

import { describe, expect, it } from 'vitest';
import { MESSAGES } from './messages.ts';
import {
  commentTextError,
  emailError,
  forumDescriptionError,
  forumNameError,
  parseTagNames,
  passwordError,
  porpNameError,
  recipientError,
  tagNamesError,
  titleError,
  usernameError,
} from './validation.ts';
import { answerTextError, questionTextError } from './markdown/index.ts';
import { questionInput, registerInput, firstIssue } from './schemas.ts';

describe('registration rules', () => {
  it.each([
    ['', MESSAGES.usernameRequired],
    ['ab', MESSAGES.usernameFormat],
    ['a'.repeat(31), MESSAGES.usernameFormat],
    ['has space', MESSAGES.usernameFormat],
    ['émile', MESSAGES.usernameFormat],
    ['Al.ice-_1', null],
  ])('username %j -> %s', (value, expected) => expect(usernameError(value)).toBe(expected));

  it.each([
    ['', MESSAGES.emailRequired],
    ['nobody', MESSAGES.emailInvalid],
    ['a@b', MESSAGES.emailInvalid],
    ['a@b.io', null],
  ])('email %j -> %s', (value, expected) => expect(emailError(value)).toBe(expected));

  it('counts password length in characters, so 64 emoji are 64 characters', () => {
    expect(passwordError('')).toBe(MESSAGES.passwordRequired);
    expect(passwordError('12345')).toBe(MESSAGES.passwordTooShort);
    expect(passwordError('123456')).toBeNull();
    expect(passwordError('🐬'.repeat(64))).toBeNull();
    expect(passwordError('x'.repeat(129))).toBe(MESSAGES.passwordTooLong);
  });

  it('gives the schema the same first message as the form', () => {
    const result = registerInput.safeParse({ username: 'ok_name', email: 'a@b.io', password: '123' });
    expect(result.success).toBe(false);
    if (!result.success) expect(firstIssue(result.error)).toBe(MESSAGES.passwordTooShort);
  });
});

describe('question rules', () => {
  it('checks the title', () => {
    expect(titleError('  ')).toBe(MESSAGES.titleEmpty);
    expect(titleError('x'.repeat(101))).toBe(MESSAGES.titleTooLong);
    expect(titleError('x'.repeat(100))).toBeNull();
  });

  it('checks the text and its hyperlinks', () => {
    expect(questionTextError('')).toBe(MESSAGES.questionTextEmpty);
    expect(questionTextError('see [docs](http://x.io)')).toBe(MESSAGES.invalidHyperlink);
    expect(questionTextError('see [](https://x.io)')).toBe(MESSAGES.invalidHyperlink);
    expect(questionTextError('see [docs](https://)')).toBe(MESSAGES.invalidHyperlink);
    expect(questionTextError('see [docs](https://x.io)')).toBeNull();
    expect(questionTextError('no links at all')).toBeNull();
    expect(answerTextError(' ')).toBe(MESSAGES.answerTextEmpty);
  });

  it('splits tags on whitespace and checks their number and length', () => {
    expect(parseTagNames('  React   node\tReact ')).toEqual(['react', 'node']);
    expect(tagNamesError([])).toBe(MESSAGES.tagsTooFew);
    expect(tagNamesError(['a', 'b', 'c', 'd', 'e', 'f'])).toBe(MESSAGES.tagsTooMany);
    expect(tagNamesError(['x'.repeat(21)])).toBe(MESSAGES.tagTooLong);
    expect(tagNamesError(['x'.repeat(20)])).toBeNull();
  });

  it('parses a question payload into lower-case tag names', () => {
    const parsed = questionInput.parse({ title: 't', text: 'x', tags: [{ name: 'React', description: 'ignored' }] });
    expect(parsed.tags).toEqual(['react']);
  });
});

describe('other rules', () => {
  it('gives each its message', () => {
    expect(commentTextError('   ')).toBe(MESSAGES.commentEmpty);
    expect(commentTextError('x'.repeat(1001))).toBe('Comment cannot be more than 1000 characters');
    expect(recipientError('')).toBe(MESSAGES.recipientEmpty);
    expect(forumNameError('')).toBe(MESSAGES.forumNameEmpty);
    expect(forumDescriptionError(' ')).toBe(MESSAGES.forumDescriptionEmpty);
    expect(porpNameError(' ')).toBe(MESSAGES.porpNameRequired);
    expect(porpNameError('x'.repeat(31))).toBe('Username cannot be more than 30 characters');
  });
});

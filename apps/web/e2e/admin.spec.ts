import { expect } from '@playwright/test';
import type { Account } from '@porpoise/core';
import { E2E_ADMIN, signInViaApi, test } from './support.ts';

test("the first account of the worker's server is its admin", async ({ context }) => {
  await signInViaApi(context, E2E_ADMIN);
  const response = await context.request.get('/api/account/me');
  expect(response.status(), await response.text()).toBe(200);
  expect(((await response.json()) as Account).role).toBe('admin');
});

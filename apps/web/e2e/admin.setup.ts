import { expect, test as setup } from '@playwright/test';
import type { Account } from '@porpoise/core';
import { E2E_ADMIN } from './support';

setup('the first account of the run is its admin', async ({ request }) => {
  const response = await request.post('/api/account/addAccount', {
    data: { ...E2E_ADMIN, createdAt: new Date().toISOString() },
  });
  expect(response.status(), await response.text()).toBe(200);
  expect(((await response.json()) as Account).role).toBe('admin');
});

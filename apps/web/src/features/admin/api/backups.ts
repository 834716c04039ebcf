import type { BackupList } from '@porpoise/core/contract';
import { callApi } from '@/lib/api-client';

/** The server's own backups (BACKUP_DIR), newest first, and the one running (docs/product.md section 15). */
export function listBackups(signal?: AbortSignal): Promise<BackupList> {
  return callApi('GET /admin/backups', { signal });
}

/** Starts a backup now; the server answers 202 with its name (409 while one runs). */
export function runBackup(): Promise<{ name: string }> {
  return callApi('POST /admin/backups', { expectedStatuses: [409] });
}

/** Where an admin's browser downloads a backup (a link: the file goes to disk as it arrives). */
export const backupDownloadUrl = (name: string) => `/api/admin/backups/${encodeURIComponent(name)}`;

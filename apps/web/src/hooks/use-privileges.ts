import { useEffect, useState } from 'react';
import type { PrivilegeKey } from '@porpoise/core';
import { getPrivileges } from '@/lib/privileges';

/**
 * The privileges the signed-in member has (docs/product.md section 13), asked for when a page
 * that offers one opens: none until the answer comes (or if it fails), so a control that needs
 * one appears only once it is known. The server checks again on every use.
 */
export function usePrivileges(): ReadonlySet<PrivilegeKey> {
  const [held, setHeld] = useState<ReadonlySet<PrivilegeKey>>(new Set());
  useEffect(() => {
    const controller = new AbortController();
    getPrivileges(controller.signal).then(
      (privileges) =>
        setHeld(new Set(privileges.filter((privilege) => privilege.has).map((privilege) => privilege.key))),
      () => undefined,
    );
    return () => controller.abort();
  }, []);
  return held;
}

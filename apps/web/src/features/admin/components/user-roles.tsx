import { useId, useState } from 'react';
import { Link } from 'react-router';
import { MESSAGES, ROLES, type Role, type UserSummary } from '@porpoise/core';
import { FormError } from '@/components/form-error';
import { RelativeTime } from '@/components/relative-time';
import { paths } from '@/config/paths';
import { userFacingError } from '@/lib/api-client';
import { setRole } from '../api/users';

const ROLE_LABELS: Record<Role, string> = { member: 'Member', moderator: 'Moderator', admin: 'Admin' };
const isRole = (value: string): value is Role => (ROLES as readonly string[]).includes(value);

/** One account: its role chosen in a list and saved by its own button, with what the server said. */
function UserRow({ user }: { user: UserSummary }) {
  const selectId = useId();
  const errorId = useId();
  const [saved, setSaved] = useState<Role>(user.role);
  const [chosen, setChosen] = useState<Role>(user.role);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState('');

  async function save() {
    if (busy) return;
    setBusy(true);
    setError(null);
    setStatus('');
    try {
      const updated = await setRole(user.username, chosen);
      setSaved(updated.role);
      setChosen(updated.role);
      setStatus(`${updated.username} is now ${ROLE_LABELS[updated.role].toLowerCase()}.`);
    } catch (failure) {
      setError(userFacingError(failure, MESSAGES.unavailable));
      setChosen(saved);
    } finally {
      setBusy(false);
    }
  }

  return (
    <tr>
      <th scope="row">
        <Link to={paths.userProfile(user.username)}>{user.username}</Link>
      </th>
      <td>
        <RelativeTime date={user.createdAt} prefix="joined " />
      </td>
      <td>
        <div className="role-control">
          <label className="visually-hidden" htmlFor={selectId}>
            Role of {user.username}
          </label>
          <select
            id={selectId}
            className="q-select"
            value={chosen}
            aria-describedby={error === null ? undefined : errorId}
            onChange={(event) => {
              if (isRole(event.target.value)) setChosen(event.target.value);
            }}
          >
            {ROLES.map((role) => (
              <option key={role} value={role}>
                {ROLE_LABELS[role]}
              </option>
            ))}
          </select>
          <button
            type="button"
            className="button"
            aria-disabled={busy || chosen === saved}
            onClick={() => {
              if (chosen !== saved) void save();
            }}
          >
            Save role<span className="visually-hidden"> of {user.username}</span>
          </button>
        </div>
        <FormError id={errorId} message={error} />
        <p className="role-control__status muted" role="status">
          {status}
        </p>
      </td>
    </tr>
  );
}

/** The admin's list of accounts with their roles (docs/product.md section 10). */
export function UserRoles({ users }: { users: UserSummary[] }) {
  if (users.length === 0) return <p className="empty-state">No users match.</p>;
  return (
    <table className="user-table">
      <caption className="visually-hidden">Users and their roles</caption>
      <thead>
        <tr>
          <th scope="col">Username</th>
          <th scope="col">Joined</th>
          <th scope="col">Role</th>
        </tr>
      </thead>
      <tbody>
        {users.map((user) => (
          <UserRow key={user.username} user={user} />
        ))}
      </tbody>
    </table>
  );
}

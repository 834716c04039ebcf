import { Link } from 'react-router';
import { PRIVILEGES, type Privilege, type PrivilegeKey } from '@porpoise/core';
import { CheckIcon } from '@/components/icons';
import { paths } from '@/config/paths';
import { formatCount } from '@/lib/numbers';
import './privileges.css';

const ALLOWS = Object.fromEntries(PRIVILEGES.map(({ key, allows }) => [key, allows])) as Record<PrivilegeKey, string>;

/** Whether the member has it: said in words (and a check mark), never by colour alone. */
function PrivilegeStatus({ privilege, reputation }: { privilege: Privilege; reputation: number }) {
  if (privilege.has) {
    return (
      <p className="privilege__status privilege__status--has">
        <CheckIcon className="privilege__icon" />
        You have this
      </p>
    );
  }
  const missing = Math.max(1, privilege.threshold - reputation);
  return <p className="privilege__status">{formatCount(missing)} more reputation needed</p>;
}

/**
 * /help/privileges (docs/product.md section 13): the member's reputation, then each privilege with
 * what it allows, its threshold and 'You have this' or how much more reputation it needs.
 */
export function PrivilegeList({ privileges, reputation }: { privileges: Privilege[]; reputation: number }) {
  return (
    <>
      <p className="page-lead privileges-lead">
        You have <strong>{formatCount(reputation)} reputation</strong>. You earn it when others upvote your questions
        and answers and when your answer is accepted; each privilege below opens once your reputation reaches its
        threshold. Moderators and admins have every privilege. Your reputation&rsquo;s history is on{' '}
        <Link to={paths.profile()}>your profile</Link>.
      </p>
      <ul className="privilege-list">
        {privileges.map((privilege) => (
          <li key={privilege.key} className="card privilege">
            <h2 className="privilege__name">{privilege.name}</h2>
            <p className="privilege__allows">{ALLOWS[privilege.key]}</p>
            <dl className="details privilege__facts">
              <div>
                <dt>Threshold</dt>
                <dd>{formatCount(privilege.threshold)} reputation</dd>
              </div>
            </dl>
            <PrivilegeStatus privilege={privilege} reputation={reputation} />
          </li>
        ))}
      </ul>
    </>
  );
}

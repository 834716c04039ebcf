import logoUrl from '@/assets/logo.svg';

export function Logo({ className }: { className?: string }) {
  return <img className={className ?? 'logo'} src={logoUrl} alt="Porpoise" width="132" height="32" />;
}

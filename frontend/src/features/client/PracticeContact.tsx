import { usePublicConfig } from '../public/api';

/** Contact phone and e-mail of the practice (payment success, dashboard). */
export function PracticeContact() {
  const { practice } = usePublicConfig();
  if (!practice) return null;
  return (
    <p className="client-contact">
      Questions? Call <a href={`tel:${practice.phone.replace(/\s+/g, '')}`}>{practice.phone}</a> or e-mail{' '}
      <a href={`mailto:${practice.email}`}>{practice.email}</a>.
    </p>
  );
}

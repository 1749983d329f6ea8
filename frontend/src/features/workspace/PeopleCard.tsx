import { Card, Flex, List, Tag, Typography } from 'antd';
import { formatDate, IDV_PERSON_KINDS, PERSON_ROLES, type IdentityPerson, type Person } from '@countinghouse/proto';
import { httpStatus, type AuthRealm } from '../../app/api';
import { useAmlFileQuery } from '../aml/api';
import { useIdentityPeopleQuery } from '../identity-verification/api';

const IDV_COLOURS: Record<IdentityPerson['status'], string> = { verified: 'green', due: 'blue', overdue: 'red', unknown: 'default' };

const norm = (name: string) => name.trim().replace(/\s+/g, ' ').toLowerCase();
/** Officers and PSCs are verified separately (a director who is also a PSC has two records). */
const amlSide = (p: Person) => (p.role === 'psc' ? 'psc' : 'officer');
const idvSide = (p: IdentityPerson) => (p.person_kind === 'director' ? 'officer' : 'psc');

interface Row {
  key: string;
  name: string;
  role: string;
  born: string | null;
  source: 'companies_house' | 'manual';
  idv: IdentityPerson | null;
}

/**
 * The people of a client's AML file, from the identity verification view matched to
 * them by name and side (officer or PSC): the AML file's people carry no Companies House person key,
 * so the name as Companies House gives it is the join. People Companies House lists and the AML file
 * does not have yet are shown too, so nobody who must verify is missing.
 */
export function joinPeople(people: readonly Person[], idv: readonly IdentityPerson[]): Row[] {
  const used = new Set<IdentityPerson>();
  const find = (p: Person) =>
    idv.find((i) => !used.has(i) && norm(i.name) === norm(p.name) && idvSide(i) === amlSide(p)) ??
    idv.find((i) => !used.has(i) && norm(i.name) === norm(p.name));
  const rows: Row[] = people
    .filter((p) => !p.ceased_on)
    .map((p) => {
      const match = find(p) ?? null;
      if (match) used.add(match);
      return {
        key: p.id,
        name: p.name,
        role: PERSON_ROLES.find((r) => r.value === p.role)?.label ?? p.role,
        born: p.date_of_birth,
        source: p.source,
        idv: match,
      };
    });
  for (const i of idv)
    if (!used.has(i))
      rows.push({
        key: `idv:${i.person_key}`,
        name: i.name,
        role: IDV_PERSON_KINDS.find((k) => k.value === i.person_kind)?.label ?? i.person_kind,
        born: null,
        source: 'companies_house',
        idv: i,
      });
  return rows;
}

/** The client record's People section (Overview): each person with their Companies House identity verification (issue 30). */
export function PeopleCard({ clientId, realm }: { clientId: string; realm: AuthRealm }) {
  const aml = useAmlFileQuery({ clientId, realm });
  const idv = useIdentityPeopleQuery({ client_id: clientId, filter: 'all', page: 1, page_size: 200, realm });
  const rows = joinPeople(aml.data?.current.people ?? [], idv.data?.people ?? []);
  // A 404 is a client with no AML file yet: no people, not a failure.
  const amlFailed = aml.isError && httpStatus(aml.error) !== 404;
  return (
    <Card size="small" title="People">
      <Typography.Paragraph type="secondary">
        Directors, people with significant control, partners and the proprietor, from Companies House or entered by hand, with their
        Companies House identity verification. Add, change or remove them in the AML tab.
      </Typography.Paragraph>
      {idv.isError && <Typography.Paragraph type="warning">The identity verification statuses could not be loaded.</Typography.Paragraph>}
      <List
        size="small"
        dataSource={rows}
        loading={aml.isLoading || idv.isLoading}
        locale={{ emptyText: amlFailed ? 'The people could not be loaded' : 'No people yet' }}
        renderItem={(p) => (
          <List.Item data-person={p.name}>
            <Flex wrap gap={8} align="center">
              <Typography.Text strong>{p.name}</Typography.Text>
              <span>{p.role}</span>
              {p.born && <span>born {formatDate(p.born)}</span>}
              <Tag>{p.source === 'companies_house' ? 'Companies House' : 'Entered by hand'}</Tag>
              {p.idv && (
                <span>
                  Identity verification:{' '}
                  <Tag color={IDV_COLOURS[p.idv.status]} data-idv-status={p.idv.status}>
                    {p.idv.status_text}
                    {p.idv.status === 'verified' && p.idv.verified_by ? ` by ${p.idv.verified_by}` : ''}
                  </Tag>
                </span>
              )}
            </Flex>
          </List.Item>
        )}
      />
    </Card>
  );
}

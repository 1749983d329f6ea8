import { NAME_MAX } from '@countinghouse/proto';
import { Input, Select } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import { PACKAGE_FILTERS, SUBSCRIPTION_STATUS_FILTERS, type PackageFilter } from '@countinghouse/proto';
import { STATUS_LABELS } from '../labels';

export type StatusFilterValue = 'all' | (typeof SUBSCRIPTION_STATUS_FILTERS)[number];
export type PackageFilterValue = 'all' | PackageFilter;

/** Spec: All Status, Active, Pending, Cancelled (overdue is not offered). */
const STATUS_FILTER_OPTIONS: { value: StatusFilterValue; label: string }[] = [
  { value: 'all', label: 'All Status' },
  ...SUBSCRIPTION_STATUS_FILTERS.map((s) => ({ value: s, label: STATUS_LABELS[s] })),
];
/** Spec: All Packages, Starter, Growth, Scale, Professional, Enterprise. */
const PACKAGE_FILTER_OPTIONS: { value: PackageFilterValue; label: string }[] = [
  { value: 'all', label: 'All Packages' },
  ...PACKAGE_FILTERS.map((p) => ({ value: p, label: p })),
];

export const CLIENT_SEARCH_PLACEHOLDER = 'Search clients, companies, or emails...';

export function SearchBox({
  value,
  onChange,
  placeholder,
  label,
}: {
  value: string;
  onChange: (v: string) => void;
  placeholder: string;
  label: string;
}) {
  return (
    <Input
      type="search"
      allowClear
      value={value}
      onChange={(e) => onChange(e.target.value)}
      placeholder={placeholder}
      aria-label={label}
      prefix={<SearchOutlined aria-hidden="true" />}
      maxLength={NAME_MAX}
      className="crm-toolbar__search"
    />
  );
}

export function StatusFilter({ value, onChange }: { value: StatusFilterValue; onChange: (v: StatusFilterValue) => void }) {
  return (
    <Select<StatusFilterValue>
      value={value}
      onChange={onChange}
      options={STATUS_FILTER_OPTIONS}
      aria-label="Status filter"
      className="crm-toolbar__select"
      popupMatchSelectWidth={false}
    />
  );
}

export function PackageFilterSelect({ value, onChange }: { value: PackageFilterValue; onChange: (v: PackageFilterValue) => void }) {
  return (
    <Select<PackageFilterValue>
      value={value}
      onChange={onChange}
      options={PACKAGE_FILTER_OPTIONS}
      aria-label="Package filter"
      className="crm-toolbar__select"
      popupMatchSelectWidth={false}
    />
  );
}

/** 'all' means no filter: nothing is sent. */
export const unlessAll = <T extends string>(v: T | 'all'): T | undefined => (v === 'all' ? undefined : (v as T));

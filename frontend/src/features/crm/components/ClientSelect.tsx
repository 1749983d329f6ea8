import { useState } from 'react';
import { Select } from 'antd';
import { useClientsQuery } from '../api';
import { useDebounced } from '../../../shared/use-debounced';

interface Props {
  value?: string | null;
  onChange?: (value: string | null) => void;
  /** The current client's name, so an existing record shows a label before any search. */
  initialLabel?: string | null;
  id?: string;
  allowClear?: boolean;
  'aria-label'?: string;
}

/** Picks a client by typing part of its name or e-mail (the server searches; there may be 200,000). */
export function ClientSelect({ value, onChange, initialLabel, id, allowClear = true, ...rest }: Props) {
  const [input, setInput] = useState('');
  const search = useDebounced(input.trim(), 250);
  const clients = useClientsQuery({ search, page: 1, page_size: 20 });
  const options = (clients.data?.clients ?? []).map((c) => ({ value: c.id, label: `${c.company_name} (${c.contact_email})` }));
  if (value && initialLabel && !options.some((o) => o.value === value)) options.unshift({ value, label: initialLabel });
  return (
    <Select
      id={id}
      showSearch={{ filterOption: false, onSearch: setInput }}
      value={value ?? undefined}
      onChange={(v: string | undefined) => onChange?.(v ?? null)}
      options={options}
      loading={clients.isFetching}
      allowClear={allowClear}
      placeholder="Type to search clients"
      notFoundContent={clients.isFetching ? 'Searching…' : 'No matching clients'}
      aria-label={rest['aria-label']}
    />
  );
}

import { Button, DatePicker, Flex, Form, Input, Modal, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { OWNERSHIP_BANDS, PERSON_ROLES, type Person, type PersonInput } from '@countinghouse/proto';
import type { AuthRealm } from '../../app/api';
import { errorBody } from '../../app/api';
import { serverText, useToast } from '../../shared/toast';
import { useAddAmlPersonMutation, useUpdateAmlPersonMutation } from './api';

interface Values {
  name: string;
  role: PersonInput['role'];
  date_of_birth?: Dayjs | null;
  address: string;
  ownership_band: PersonInput['ownership_band'];
}

/**
 * Add a person to verify by hand, or change one (a sole trader's proprietor, a partner, a director
 * when Companies House is not linked): name, role, date of birth, address, ownership.
 */
export function PersonFormModal({
  clientId,
  realm,
  person,
  defaultRole = 'director',
  onClose,
}: {
  clientId: string;
  realm: AuthRealm;
  /** The person to change; none to add one. */
  person: Person | null;
  defaultRole?: PersonInput['role'];
  onClose: () => void;
}) {
  const [form] = Form.useForm<Values>();
  const toast = useToast();
  const [add, adding] = useAddAmlPersonMutation();
  const [update, updating] = useUpdateAmlPersonMutation();
  const initial: Values = person
    ? {
        name: person.name,
        role: person.role,
        date_of_birth: person.date_of_birth ? dayjs(person.date_of_birth) : null,
        address: person.address,
        ownership_band: person.ownership_band,
      }
    : { name: '', role: defaultRole, date_of_birth: null, address: '', ownership_band: defaultRole === 'owner' ? '75_or_more' : 'none' };

  async function onFinish(v: Values) {
    const body: PersonInput = {
      name: v.name.trim(),
      role: v.role,
      date_of_birth: v.date_of_birth ? v.date_of_birth.format('YYYY-MM-DD') : null,
      address: v.address.trim(),
      ownership_band: v.ownership_band,
    };
    try {
      if (person) await update({ clientId, personId: person.id, person: body, realm }).unwrap();
      else await add({ clientId, person: body, realm }).unwrap();
      toast.success(serverText(person ? `${body.name} updated` : `${body.name} added`), 'aml');
      onClose();
    } catch (err) {
      toast.error(serverText(errorBody(err)?.message ?? 'The person could not be saved'), 'aml');
    }
  }

  return (
    <Modal open title={person ? `Edit ${person.name}` : 'Add person'} onCancel={onClose} footer={null} destroyOnHidden>
      <Form<Values> form={form} layout="vertical" initialValues={initial} onFinish={(v) => void onFinish(v)} requiredMark="optional">
        <Form.Item name="name" label="Full name" rules={[{ required: true, whitespace: true, message: 'Enter the full name' }]}>
          <Input maxLength={200} autoComplete="off" />
        </Form.Item>
        <Form.Item name="role" label="Role" rules={[{ required: true }]}>
          <Select options={[...PERSON_ROLES]} />
        </Form.Item>
        <Form.Item name="date_of_birth" label="Date of birth">
          <DatePicker format="DD/MM/YYYY" disabledDate={(d) => d.isAfter(dayjs())} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="address" label="Home address" rules={[{ required: true, whitespace: true, message: 'Enter the address' }]}>
          <Input maxLength={500} autoComplete="off" />
        </Form.Item>
        <Form.Item name="ownership_band" label="Ownership" rules={[{ required: true }]}>
          <Select options={[...OWNERSHIP_BANDS]} />
        </Form.Item>
        <Flex gap={8} justify="flex-end">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="primary" htmlType="submit" loading={adding.isLoading || updating.isLoading}>
            {person ? 'Save' : 'Add person'}
          </Button>
        </Flex>
      </Form>
    </Modal>
  );
}

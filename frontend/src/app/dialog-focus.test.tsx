import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Button, Input, Modal } from 'antd';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { AntdProviders } from './antd-shell';

/** A page that mounts its dialog only while open, as the CRM's forms do (`{open && <FormModal … />}`). */
function MountedWhileOpen() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>Add Client</Button>
      <Button>Another control</Button>
      {open && (
        <Modal open title="Add Client" onCancel={() => setOpen(false)} onOk={() => setOpen(false)}>
          <Input aria-label="Business name" />
          <Input aria-label="Contact name" />
        </Modal>
      )}
    </>
  );
}

/** A dialog that is only hidden on close, and has no field (a confirmation). */
function NoField() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>Remove</Button>
      <Modal open={open} title="Remove this?" onCancel={() => setOpen(false)} onOk={() => setOpen(false)}>
        <p>This cannot be undone.</p>
      </Modal>
    </>
  );
}

/** Renders the form dialog, opens it with a click and checks focus went to its first field. */
async function openAddClient() {
  const user = userEvent.setup();
  render(
    <AntdProviders>
      <MountedWhileOpen />
    </AntdProviders>,
  );
  const opener = screen.getByRole('button', { name: 'Add Client' });
  await user.click(opener);
  await waitFor(() => expect(screen.getByLabelText('Business name')).toHaveFocus());
  return { user, opener };
}

describe('focus in dialogs (issue 22)', () => {
  it('goes to the first field when a dialog opens and back to its opener when Escape closes it', async () => {
    const { user, opener } = await openAddClient();

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(opener).toHaveFocus());
  });

  it('goes back to the opener after the dialog is closed with its buttons', async () => {
    const { user, opener } = await openAddClient();
    await user.click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(opener).toHaveFocus());
  });

  it('puts focus inside a dialog without fields (a confirmation), not left on the page', async () => {
    const user = userEvent.setup();
    render(
      <AntdProviders>
        <NoField />
      </AntdProviders>,
    );
    await user.click(screen.getByRole('button', { name: 'Remove' }));
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
    // Closing it is antd's own restore (its leave motion never ends in jsdom; the browser test covers it).
  });
});

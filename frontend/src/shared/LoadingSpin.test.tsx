import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LoadingSpin } from './LoadingSpin';

describe('LoadingSpin', () => {
  it('is a status named by its label, on the element that carries the label (not a bare div with aria-label)', () => {
    render(<LoadingSpin label="Loading staff" size="small" />);
    const status = screen.getByRole('status', { name: 'Loading staff' });
    expect(status).toHaveClass('ant-spin', 'ant-spin-sm', 'ant-spin-spinning');
    expect(status).toHaveAttribute('aria-busy', 'true');
    // (antd's Spin alone would put aria-label on a div with no role: axe's aria-prohibited-attr)
    for (const el of document.querySelectorAll('[aria-label]')) expect(el.getAttribute('role')).toBe('status');
  });
});

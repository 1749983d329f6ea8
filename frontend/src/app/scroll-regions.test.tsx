import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useScrollRegions } from './scroll-regions';

function Marker() {
  useScrollRegions();
  return null;
}

describe('scroll regions (WCAG 2.1.1, axe scrollable-region-focusable)', () => {
  it('a table drawn after the page is reachable by keyboard before the next frame, named by its labelled container', async () => {
    const { unmount } = render(<Marker />);
    const frames: number[] = [];
    requestAnimationFrame((t) => frames.push(t));
    const box = document.createElement('div');
    box.setAttribute('aria-label', 'Deadlines');
    box.innerHTML = '<div class="ant-table-content"><table><tbody><tr><td>VAT return</td></tr></tbody></table></div>';
    document.body.append(box);
    // (the observer's callback is a microtask: one turn, no frame)
    await Promise.resolve();
    expect(frames).toEqual([]);
    const region = box.querySelector<HTMLElement>('.ant-table-content')!;
    expect(region.tabIndex).toBe(0);
    expect(region.getAttribute('role')).toBe('region');
    expect(region.getAttribute('aria-label')).toBe('Deadlines (scrolls sideways)');
    expect(region.classList.contains('scroll-region')).toBe(true);
    unmount();
    box.remove();
  });

  it('a region added by itself into a container already on the page is marked too', async () => {
    const { unmount } = render(<Marker />);
    const box = document.createElement('div');
    document.body.append(box);
    await Promise.resolve();
    const region = document.createElement('div');
    region.className = 'ant-table-body';
    box.append(region);
    await Promise.resolve();
    expect(region.tabIndex).toBe(0);
    expect(region.getAttribute('aria-label')).toBe('Table (scrolls sideways)');
    unmount();
    box.remove();
  });

  it('keeps what the page set itself, and marks a region once', async () => {
    const { unmount } = render(<Marker />);
    const box = document.createElement('div');
    box.innerHTML = '<div data-scroll-region tabindex="-1" role="group" aria-labelledby="x"></div>';
    document.body.append(box);
    await Promise.resolve();
    const region = box.firstElementChild as HTMLElement;
    expect(region.getAttribute('tabindex')).toBe('-1');
    expect(region.getAttribute('role')).toBe('group');
    expect(region.hasAttribute('aria-label')).toBe(false);
    region.classList.remove('scroll-region');
    box.append(document.createElement('span'));
    await Promise.resolve();
    // (ready: not marked again)
    expect(region.classList.contains('scroll-region')).toBe(false);
    unmount();
    box.remove();
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderScriptText, type ScriptRecord } from '@countinghouse/proto';
import { describe, expect, it, vi } from 'vitest';
import { apiError, json, mockFetch } from '../../test/fetch-mock';
import { renderAt } from '../../test/render';
import { VideoScriptTab } from './VideoScriptTab';

const SCRIPT = {
  title: 'Ledger & Co: Company Overview',
  total_seconds: 75,
  scenes: [
    { start_second: 0, end_second: 30, narration: 'We look after the numbers.', on_screen_text: 'Ledger & Co', visual: 'Logo reveal' },
    { start_second: 30, end_second: 75, narration: 'Call 020 7946 0000 today.', on_screen_text: '020 7946 0000', visual: 'Closing card' },
  ],
};

function record(over: Partial<ScriptRecord> = {}): ScriptRecord {
  return {
    id: '0b6f3f5e-8c1a-4f5e-9a8e-2b1f0c3d4e5f',
    type: 'company_overview',
    prompt: null,
    status: 'queued',
    progress: 0,
    script: null,
    text: null,
    generator: null,
    model: null,
    error: null,
    attempts: 0,
    started_at: null,
    completed_at: null,
    duration_ms: null,
    requested_by: { kind: 'admin', id: 'a1', name: 'bob' },
    created_at: '2026-03-05T10:00:00.000Z',
    ...over,
  };
}

const TEXT = renderScriptText(SCRIPT, { type: 'company_overview', generator: 'template' });
const completed = record({ status: 'completed', progress: 100, script: SCRIPT, text: TEXT, generator: 'template', attempts: 1 });
const ID = completed.id;

function routes(extra: Parameters<typeof mockFetch>[0] = {}) {
  return mockFetch({
    'GET /api/media/generator': () => json(200, { generator: 'template', model: null }),
    'GET /api/media/scripts': () => json(200, { scripts: [], total: 0, page: 1, page_size: 5 }),
    ...extra,
  });
}

const renderTab = () => renderAt('/', { routes: [{ path: '/', element: <VideoScriptTab /> }] });

async function generateCompleted(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: /Generate Video Script/ }));
  return screen.findByTestId('script-result', undefined, { timeout: 6000 });
}

describe('AI Video tab', () => {
  it('offers the three options and disables the button while a custom description is empty', async () => {
    routes();
    renderTab();
    const user = userEvent.setup();
    for (const name of ['Company Overview (60-90 seconds)', 'Website Demo (90-120 seconds)', 'Custom Video (custom length)']) {
      expect(screen.getByRole('radio', { name })).toBeInTheDocument();
    }
    const button = screen.getByRole('button', { name: /Generate Video Script/ });
    expect(button).toBeEnabled();
    await user.click(screen.getByText('Custom Video (custom length)'));
    expect(screen.getByRole('radio', { name: 'Custom Video (custom length)' })).toBeChecked();
    expect(button).toBeDisabled();
    const box = screen.getByLabelText('Describe your video');
    await user.type(box, '   ');
    expect(button).toBeDisabled();
    await user.type(box, 'A reel for landlords');
    expect(button).toBeEnabled();
    await user.clear(box);
    expect(button).toBeDisabled();
    expect(await screen.findByText(/built-in template generator/)).toBeInTheDocument();
  });

  it("reads 'Generating Video Script...' with a progress bar while the job runs, then shows the script", async () => {
    const api = routes({
      'POST /api/media/scripts': () => json(202, record()),
      [`GET /api/media/scripts/${ID}`]: [
        () => json(200, record({ status: 'running', progress: 40, attempts: 1 })),
        () => json(200, completed),
      ],
    });
    renderTab();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /Generate Video Script/ }));
    const working = await screen.findByRole('button', { name: /Generating Video Script\.\.\./ });
    expect(working).toBeDisabled();
    const bar = await screen.findByRole('progressbar', { name: 'Script generation progress' });
    await waitFor(() => expect(bar).toHaveAttribute('aria-valuenow', '40'));

    const result = await screen.findByTestId('script-result', undefined, { timeout: 6000 });
    expect(await screen.findByText('Video script generated successfully!')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Generate Video Script/ })).toBeEnabled();
    expect(within(result).getByText('Ledger & Co: Company Overview')).toBeInTheDocument();
    expect(within(result).getByText('0:30 - 1:15')).toBeInTheDocument();
    expect(
      within(result).getByText('Written by the built-in template generator because no AI provider is configured.'),
    ).toBeInTheDocument();
    expect(within(result).getByRole('heading', { name: 'Next Steps' })).toBeInTheDocument();
    expect(within(result).getByText(/screen recorder/)).toBeInTheDocument();
    expect(api.callsTo('POST /api/media/scripts')[0]!.body).toEqual({ type: 'company_overview', customPrompt: null });
    expect(api.callsTo(`GET /api/media/scripts/${ID}`).length).toBe(2);
  });

  it('sends type null and the trimmed description for a custom video', async () => {
    const api = routes({
      'POST /api/media/scripts': () => json(202, record({ type: 'custom', prompt: 'A reel' })),
      [`GET /api/media/scripts/${ID}`]: () => json(200, { ...completed, type: 'custom', prompt: 'A reel' }),
    });
    renderTab();
    const user = userEvent.setup();
    await user.click(screen.getByText('Custom Video (custom length)'));
    expect(screen.getByRole('radio', { name: 'Custom Video (custom length)' })).toBeChecked();
    await user.type(screen.getByLabelText('Describe your video'), '  A reel  ');
    await generateCompleted(user);
    expect(api.callsTo('POST /api/media/scripts')[0]!.body).toEqual({ type: null, customPrompt: 'A reel' });
  });

  it('downloads the script as a text file', async () => {
    routes({ 'POST /api/media/scripts': () => json(202, record()), [`GET /api/media/scripts/${ID}`]: () => json(200, completed) });
    const blobs: Blob[] = [];
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: vi.fn((b: Blob) => (blobs.push(b), 'blob:script')), revokeObjectURL: vi.fn() }),
    );
    const clicked: HTMLAnchorElement[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    renderTab();
    const user = userEvent.setup();
    const result = await generateCompleted(user);
    await user.click(within(result).getByRole('button', { name: /Download/ }));
    expect(click).toHaveBeenCalledTimes(1);
    expect(clicked[0]!.download).toBe('ledger-co-company-overview-script.txt');
    expect(clicked[0]!.href).toBe('blob:script');
    expect(await blobs[0]!.text()).toBe(TEXT);
    expect(blobs[0]!.type).toContain('text/plain');
    expect(await screen.findByText('Script downloaded successfully!')).toBeInTheDocument();
  });

  it('copies to the clipboard when the browser has no share sheet', async () => {
    routes({ 'POST /api/media/scripts': () => json(202, record()), [`GET /api/media/scripts/${ID}`]: () => json(200, completed) });
    renderTab();
    const user = userEvent.setup(); // installs a clipboard stub on navigator
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    expect('share' in navigator && typeof navigator.share === 'function').toBe(false);
    const result = await generateCompleted(user);
    await user.click(within(result).getByRole('button', { name: /Share/ }));
    expect(writeText).toHaveBeenCalledWith(TEXT);
    expect(await navigator.clipboard.readText()).toBe(TEXT);
    expect(await screen.findByText('Script copied to clipboard!')).toBeInTheDocument();
  });

  it('uses the system share sheet where there is one', async () => {
    routes({ 'POST /api/media/scripts': () => json(202, record()), [`GET /api/media/scripts/${ID}`]: () => json(200, completed) });
    const share = vi.fn(async () => {});
    Object.defineProperty(navigator, 'share', { configurable: true, value: share });
    try {
      renderTab();
      const user = userEvent.setup();
      const writeText = vi.spyOn(navigator.clipboard, 'writeText');
      const result = await generateCompleted(user);
      await user.click(within(result).getByRole('button', { name: /Share/ }));
      expect(share).toHaveBeenCalledWith({ title: SCRIPT.title, text: TEXT });
      expect(writeText).not.toHaveBeenCalled();
    } finally {
      delete (navigator as { share?: unknown }).share;
    }
  });

  it("shows 'Failed to generate video script' with the server's error text when the job fails", async () => {
    const error = "The AI provider's script did not fit the video length after two tries: the script lasts 150 seconds.";
    routes({
      'POST /api/media/scripts': () => json(202, record()),
      [`GET /api/media/scripts/${ID}`]: () => json(200, record({ status: 'failed', error, generator: 'openai', attempts: 1 })),
    });
    renderTab();
    await userEvent.setup().click(screen.getByRole('button', { name: /Generate Video Script/ }));
    expect(await screen.findAllByText('Failed to generate video script')).not.toHaveLength(0);
    expect((await screen.findAllByText(error)).length).toBeGreaterThanOrEqual(1);
    expect(screen.getByRole('button', { name: /Generate Video Script/ })).toBeEnabled();
  });

  it("shows the server's refusal text for a rejected request", async () => {
    routes({ 'POST /api/media/scripts': () => apiError(403, 'FORBIDDEN', "You don't have access to this area") });
    renderTab();
    await userEvent.setup().click(screen.getByRole('button', { name: /Generate Video Script/ }));
    expect(await screen.findByText('Failed to generate video script')).toBeInTheDocument();
    expect(await screen.findByText("You don't have access to this area")).toBeInTheDocument();
  });

  it("says 'An unexpected error occurred' when the network fails", async () => {
    routes({
      'POST /api/media/scripts': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    renderTab();
    await userEvent.setup().click(screen.getByRole('button', { name: /Generate Video Script/ }));
    expect(await screen.findByText('An unexpected error occurred')).toBeInTheDocument();
  });

  it('lists earlier scripts and reopens one', async () => {
    routes({
      'GET /api/media/scripts': () =>
        json(200, {
          scripts: [
            {
              id: ID,
              type: 'company_overview',
              prompt: null,
              status: 'completed',
              title: SCRIPT.title,
              total_seconds: 75,
              generator: 'template',
              error: null,
              requested_by: { kind: 'admin', id: 'a1', name: 'bob' },
              created_at: '2026-03-05T10:00:00.000Z',
            },
          ],
          total: 1,
          page: 1,
          page_size: 5,
        }),
      [`GET /api/media/scripts/${ID}`]: () => json(200, completed),
    });
    renderTab();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: `Open ${SCRIPT.title}` }));
    const result = await screen.findByTestId('script-result');
    expect(within(result).getByText('We look after the numbers.')).toBeInTheDocument();
    expect(screen.queryByText('Video script generated successfully!')).not.toBeInTheDocument();
  });
});

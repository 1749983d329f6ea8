import { enGbDate } from '@countinghouse/proto';

/** A chase e-mail: only the items still open, each with a link straight to it. */
export function reminderMail(p: {
  practiceName: string;
  clientName: string;
  title: string;
  dueOn: string;
  today: string;
  openItems: Array<{ id: string; label: string; rejectionReason: string | null }>;
  baseUrl: string;
}) {
  const overdue = p.today > p.dueOn;
  const lines = p.openItems.map(
    (i) =>
      `- ${i.label}${i.rejectionReason ? ` (sent back: ${i.rejectionReason})` : ''}: ${p.baseUrl}/client-dashboard?item=${encodeURIComponent(i.id)}`,
  );
  return {
    subject: overdue ? `Overdue: ${p.title}` : `${p.practiceName} needs: ${p.title} by ${enGbDate(p.dueOn)}`,
    text: [
      'Hello,',
      '',
      overdue
        ? `${p.title} for ${p.clientName} was due on ${enGbDate(p.dueOn)} and we are still waiting for:`
        : `To keep ${p.clientName}'s work on time, please send us by ${enGbDate(p.dueOn)}:`,
      '',
      ...lines,
      '',
      'Sign in to your client portal to upload, answer or confirm each one.',
      '',
      p.practiceName,
    ].join('\n'),
  };
}

/** The notice of a new secure message: no content, only that one is waiting (issue 28). */
export function messageNotice(p: { practiceName: string; toClient: boolean; clientName: string; baseUrl: string }) {
  return {
    subject: p.toClient ? `New secure message from ${p.practiceName}` : `New secure message from ${p.clientName}`,
    text: p.toClient
      ? [
          'Hello,',
          '',
          `You have a new secure message from ${p.practiceName}.`,
          `Read it in your client portal: ${p.baseUrl}/client-dashboard`,
          '',
          p.practiceName,
        ].join('\n')
      : [`${p.clientName} sent a new secure message.`, `Read it on the client's record: ${p.baseUrl}/staff/requests`].join('\n'),
  };
}

import { findPackage, PACKAGES, type TemplateSet } from '@countinghouse/proto';

/** The first templates, written at the first start; the practice edits them in /admin/settings. */
export function defaultTemplates(): TemplateSet {
  const schedules: Record<string, string> = {};
  for (const p of PACKAGES) {
    const features = findPackage(p.name)?.features ?? [];
    schedules[p.name] = [
      'For {{monthly_fee}} per month (the {{package}} package) we will provide:',
      ...features.map((f) => `- ${f}`),
      'Work outside this schedule is agreed and priced with you in writing before it starts.',
    ].join('\n');
  }
  return {
    terms: [
      'This letter sets out the basis on which {{practice_name}} ("we") will act for {{client_name}} ("you"), from {{start_date}}.',
      "1. Fees. You pay {{monthly_fee}} per month by subscription for the services in the schedule below. Either of us may end this engagement by giving one month's notice.",
      '2. Your responsibilities. You will give us complete and accurate records and information in good time, and tell us about any change in your circumstances. You remain responsible for your tax returns and accounts, which we prepare from the information you give us.',
      '3. Professional rules. We follow the ethical and professional rules of our professional body, and the Money Laundering Regulations 2017, which require us to verify your identity and to report suspicions to the National Crime Agency without telling you.',
      '4. Records. We keep our working papers for at least six years after the end of the engagement.',
      '5. Complaints. If you are unhappy with our service, write to us at {{practice_email}} or call {{practice_phone}}; we will reply within 14 days.',
      '6. Law. This engagement is governed by the law of England and Wales.',
    ].join('\n'),
    privacy: [
      '{{practice_name}} is the controller of the personal data you give us. We use it to provide the services above, to meet our legal obligations (including anti-money-laundering checks and HMRC requirements) and to run our practice.',
      "We share it only with HMRC, Companies House and the providers who help us run our systems, and keep it for six years after the engagement ends. You may ask to see, correct or erase your data by writing to {{practice_email}}, and you may complain to the Information Commissioner's Office (ico.org.uk).",
    ].join('\n'),
    cancellation: [
      'You have the right to cancel this contract within 14 days without giving any reason. The cancellation period ends 14 days after the day you sign this letter.',
      'To cancel, tell us by a clear statement (an e-mail to {{practice_email}} or a call to {{practice_phone}}) before the cancellation period ends.',
      'If you cancel, we will refund your payments without undue delay and no later than 14 days after we hear from you. If you asked us to start work during the cancellation period, you will pay an amount in proportion to the work done until you told us (Consumer Contracts Regulations 2013, regs. 34 and 36).',
    ].join('\n'),
    schedules,
  };
}

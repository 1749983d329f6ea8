export { SignLetterItem } from './SignLetterItem';
export { EngagementTemplatesSection } from './TemplatesSection';
export { ClientLetterDialog, LetterStatusTag, useLetterStatusOf, type LetterTarget } from './ClientLetterDialog';
export { AwaitingSignatureCard } from './AwaitingSignatureCard';
export { EngagementLettersPanel } from './LettersPanel';

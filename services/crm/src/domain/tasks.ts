export const TASK_MESSAGES = {
  notFound: 'Task not found',
  unknownClient: 'That client does not exist.',
  unknownAssignee: 'Choose someone from the team: this person is not an active team member.',
} as const;

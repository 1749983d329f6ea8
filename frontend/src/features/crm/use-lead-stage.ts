import { useState } from 'react';
import type { Lead, LeadStage } from '@countinghouse/proto';
import { useUpdateLeadMutation } from './api';
import { writeErrorText } from './errors';
import { useToast } from '../../shared/toast';
import { useCrmRealm } from './realm';

/** Moves a lead to another stage; remembers which lead is saving so only its control spins. */
export function useLeadStageChange() {
  const [updateLead] = useUpdateLeadMutation();
  const [savingStageOf, setSavingStageOf] = useState<string | null>(null);
  const toast = useToast();
  const realm = useCrmRealm();

  async function changeStage(lead: Lead, stage: LeadStage) {
    if (stage === lead.stage) return;
    setSavingStageOf(lead.id);
    try {
      await updateLead({ id: lead.id, body: { stage }, realm }).unwrap();
    } catch (error) {
      toast.error(writeErrorText(error), 'lead-stage');
    } finally {
      setSavingStageOf(null);
    }
  }

  return { savingStageOf, changeStage: (lead: Lead, stage: LeadStage) => void changeStage(lead, stage) };
}

-- Terms before payment (issue 33): a letter signed before the first payment belongs to a provisional
-- client, 'prospect:<user id>', until crm creates the client record. The one change a letter may then
-- take, signed or not, is that key replaced once by crm's id: every other column (the text, the terms,
-- the signature, the PDF) must stay exactly as it was. Everything else stays refused, as in 0001.
CREATE OR REPLACE FUNCTION "engagement".guard_letters() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'engagement letters are never deleted' USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  IF OLD.client_id LIKE 'prospect:%' AND NEW.client_id NOT LIKE 'prospect:%'
     AND (to_jsonb(NEW) - 'client_id') = (to_jsonb(OLD) - 'client_id') THEN
    RETURN NEW;
  END IF;
  IF OLD.signed_at IS NOT NULL THEN
    RAISE EXCEPTION 'a signed engagement letter is never changed' USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  -- An unsigned letter may only be signed: what was sent (its text and terms) stays as sent.
  IF NEW.id <> OLD.id OR NEW.client_id <> OLD.client_id OR NEW.version <> OLD.version OR NEW.text <> OLD.text
     OR NEW.text_sha256 <> OLD.text_sha256 OR NEW.package_name <> OLD.package_name OR NEW.monthly_fee <> OLD.monthly_fee
     OR NEW.is_consumer <> OLD.is_consumer OR NEW.sent_at <> OLD.sent_at OR NEW.reason <> OLD.reason
     OR NEW.template_version <> OLD.template_version OR NEW.client_name <> OLD.client_name THEN
    RAISE EXCEPTION 'a sent engagement letter''s text and terms are never changed' USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  RETURN NEW;
END $$;

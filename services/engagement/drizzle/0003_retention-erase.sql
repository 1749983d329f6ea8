-- Retention (issue 34): a letter and its audit are erased once the retention schedule's period has run
-- (the life of the engagement and 6 years after, at least). Only the retention erase sets
-- engagement.retention_erase for its own transaction (SET LOCAL); every other DELETE is still refused,
-- and a signed letter is still never changed.
CREATE OR REPLACE FUNCTION "engagement".guard_letters() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF current_setting('engagement.retention_erase', true) = 'on' THEN
      RETURN OLD;
    END IF;
    RAISE EXCEPTION 'engagement letters are never deleted' USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  -- (0002, terms before payment: a provisional client's key replaced once by crm's id, nothing else)
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
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "engagement".append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND TG_TABLE_NAME = 'audit' AND current_setting('engagement.retention_erase', true) = 'on' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION '% rows are never changed or deleted', TG_TABLE_NAME USING ERRCODE = 'integrity_constraint_violation';
END $$;

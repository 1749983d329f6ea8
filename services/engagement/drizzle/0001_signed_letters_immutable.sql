-- A signed engagement letter is a regulated record: never changed, never deleted. Enforced here, below
-- every API, so no code path (or hand-written query from the service's role) can alter one.
CREATE FUNCTION "engagement".guard_letters() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'engagement letters are never deleted' USING ERRCODE = 'integrity_constraint_violation';
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
CREATE TRIGGER letters_guard BEFORE UPDATE OR DELETE ON "engagement"."letters" FOR EACH ROW EXECUTE FUNCTION "engagement".guard_letters();
--> statement-breakpoint
CREATE FUNCTION "engagement".append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% rows are never changed or deleted', TG_TABLE_NAME USING ERRCODE = 'integrity_constraint_violation';
END $$;
--> statement-breakpoint
CREATE TRIGGER audit_append_only BEFORE UPDATE OR DELETE ON "engagement"."audit" FOR EACH ROW EXECUTE FUNCTION "engagement".append_only();
--> statement-breakpoint
CREATE TRIGGER template_versions_append_only BEFORE UPDATE OR DELETE ON "engagement"."template_versions" FOR EACH ROW EXECUTE FUNCTION "engagement".append_only();

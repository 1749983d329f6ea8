-- An approved AML version is a regulated record (MLR 2017 reg. 40): it is never edited in place.
-- The only change allowed to an approved row is its replacement by a later approved version
-- (state 'approved' -> 'superseded', nothing else). Rows are deleted only with their whole file,
-- after the retention period, by the deletion use-case.
CREATE FUNCTION "aml"."versions_immutable"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.state IN ('approved', 'superseded') THEN
    IF NEW.state = 'superseded' AND OLD.state = 'approved'
       AND NEW.content = OLD.content AND NEW.risk IS NOT DISTINCT FROM OLD.risk
       AND NEW.approved_at IS NOT DISTINCT FROM OLD.approved_at AND NEW.next_review_on IS NOT DISTINCT FROM OLD.next_review_on
       AND NEW.approval_note IS NOT DISTINCT FROM OLD.approval_note AND NEW.approved_by IS NOT DISTINCT FROM OLD.approved_by THEN
      RETURN NEW;
    END IF;
    RAISE EXCEPTION 'approved AML version % of client % cannot be changed', OLD.version, OLD.client_id USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "versions_immutable" BEFORE UPDATE ON "aml"."versions" FOR EACH ROW EXECUTE FUNCTION "aml"."versions_immutable"();
--> statement-breakpoint
-- The audit trail is only ever added to.
CREATE FUNCTION "aml"."audit_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the AML audit trail is append-only' USING ERRCODE = 'check_violation';
END $$;
--> statement-breakpoint
CREATE TRIGGER "audit_append_only" BEFORE UPDATE ON "aml"."audit" FOR EACH ROW EXECUTE FUNCTION "aml"."audit_append_only"();

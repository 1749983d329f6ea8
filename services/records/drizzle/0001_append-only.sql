-- The audit trail is append-only (issue 34): no UPDATE, ever. DELETE stays possible for the retention
-- run; the hash chain makes any change made around this trigger (by the table's owner) detectable.
CREATE OR REPLACE FUNCTION records.refuse_audit_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'records.audit_entries is append-only';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER audit_entries_append_only BEFORE UPDATE ON records.audit_entries
  FOR EACH ROW EXECUTE FUNCTION records.refuse_audit_update();

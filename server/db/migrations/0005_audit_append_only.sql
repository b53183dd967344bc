-- The audit trail is append-only: the database itself refuses to change or remove its rows, so
-- no code path (or mistaken query) can. Tampering needs a superuser disabling this trigger, and
-- the hash chain (npm run audit:verify) then names the changed row.
CREATE OR REPLACE FUNCTION audit_events_append_only() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'audit_events is append-only';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER audit_events_no_update_or_delete
  BEFORE UPDATE OR DELETE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION audit_events_append_only();

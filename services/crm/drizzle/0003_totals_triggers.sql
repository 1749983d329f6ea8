-- Exact counters for the summary cards (crm.client_totals, crm.lead_totals), kept in the same
-- transaction as every write by statement-level triggers with transition tables: one counter update
-- per statement, whether it touched one row or 200,000 (COPY and INSERT ... SELECT included).
-- Rows are applied in key order so two concurrent writers lock counter rows in the same order.
CREATE FUNCTION crm.client_totals_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO crm.client_totals AS t (subscription_status, clients, revenue)
    SELECT subscription_status, count(*), coalesce(sum(monthly_fee), 0) FROM new_rows GROUP BY subscription_status ORDER BY 1
    ON CONFLICT (subscription_status) DO UPDATE SET clients = t.clients + excluded.clients, revenue = t.revenue + excluded.revenue;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO crm.client_totals AS t (subscription_status, clients, revenue)
    SELECT s, sum(c), sum(r) FROM (
      SELECT subscription_status AS s, -count(*) AS c, -coalesce(sum(monthly_fee), 0) AS r FROM old_rows GROUP BY 1
      UNION ALL
      SELECT subscription_status, count(*), coalesce(sum(monthly_fee), 0) FROM new_rows GROUP BY 1
    ) d GROUP BY s ORDER BY s
    ON CONFLICT (subscription_status) DO UPDATE SET clients = t.clients + excluded.clients, revenue = t.revenue + excluded.revenue;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO crm.client_totals AS t (subscription_status, clients, revenue)
    SELECT subscription_status, -count(*), -coalesce(sum(monthly_fee), 0) FROM old_rows GROUP BY subscription_status ORDER BY 1
    ON CONFLICT (subscription_status) DO UPDATE SET clients = t.clients + excluded.clients, revenue = t.revenue + excluded.revenue;
  ELSIF TG_OP = 'TRUNCATE' THEN
    DELETE FROM crm.client_totals;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER clients_totals_insert AFTER INSERT ON crm.clients REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION crm.client_totals_apply();
--> statement-breakpoint
CREATE TRIGGER clients_totals_update AFTER UPDATE ON crm.clients REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION crm.client_totals_apply();
--> statement-breakpoint
CREATE TRIGGER clients_totals_delete AFTER DELETE ON crm.clients REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION crm.client_totals_apply();
--> statement-breakpoint
CREATE TRIGGER clients_totals_truncate AFTER TRUNCATE ON crm.clients
  FOR EACH STATEMENT EXECUTE FUNCTION crm.client_totals_apply();
--> statement-breakpoint
CREATE FUNCTION crm.lead_totals_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO crm.lead_totals AS t (stage, leads)
    SELECT stage, count(*) FROM new_rows GROUP BY stage ORDER BY 1
    ON CONFLICT (stage) DO UPDATE SET leads = t.leads + excluded.leads;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO crm.lead_totals AS t (stage, leads)
    SELECT s, sum(c) FROM (
      SELECT stage AS s, -count(*) AS c FROM old_rows GROUP BY 1
      UNION ALL
      SELECT stage, count(*) FROM new_rows GROUP BY 1
    ) d GROUP BY s ORDER BY s
    ON CONFLICT (stage) DO UPDATE SET leads = t.leads + excluded.leads;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO crm.lead_totals AS t (stage, leads)
    SELECT stage, -count(*) FROM old_rows GROUP BY stage ORDER BY 1
    ON CONFLICT (stage) DO UPDATE SET leads = t.leads + excluded.leads;
  ELSIF TG_OP = 'TRUNCATE' THEN
    DELETE FROM crm.lead_totals;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER leads_totals_insert AFTER INSERT ON crm.leads REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION crm.lead_totals_apply();
--> statement-breakpoint
CREATE TRIGGER leads_totals_update AFTER UPDATE ON crm.leads REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION crm.lead_totals_apply();
--> statement-breakpoint
CREATE TRIGGER leads_totals_delete AFTER DELETE ON crm.leads REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION crm.lead_totals_apply();
--> statement-breakpoint
CREATE TRIGGER leads_totals_truncate AFTER TRUNCATE ON crm.leads
  FOR EACH STATEMENT EXECUTE FUNCTION crm.lead_totals_apply();

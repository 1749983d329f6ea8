\echo '### 1. list, no filter (created_at desc, page 1)'
explain (analyze, buffers off, timing on, summary on) select * from crm.clients order by created_at desc, id desc limit 25;
\echo '### 2. list, status=active'
explain (analyze) select * from crm.clients where subscription_status = 'active' order by created_at desc, id desc limit 25;
\echo '### 3. list, package=Growth (sort registration_date)'
explain (analyze) select * from crm.clients where package_name = 'Growth' order by registration_date desc, id desc limit 25;
\echo '### 4. total for package=Growth'
explain (analyze) select count(*) from crm.clients where package_name = 'Growth';
\echo '### 5. search "smith" (selective-ish) page'
explain (analyze) select * from crm.clients where (company_name ilike '%smith%' or contact_email ilike '%smith%' or contact_name ilike '%smith%') order by created_at desc, id desc limit 25;
\echo '### 6. search "smith" total'
explain (analyze) select count(*) from crm.clients where (company_name ilike '%smith%' or contact_email ilike '%smith%' or contact_name ilike '%smith%');
\echo '### 7. search rare "123456" page + total'
explain (analyze) select * from crm.clients where (company_name ilike '%123456%' or contact_email ilike '%123456%' or contact_name ilike '%123456%') order by created_at desc, id desc limit 25;
explain (analyze) select count(*) from crm.clients where (company_name ilike '%123456%' or contact_email ilike '%123456%' or contact_name ilike '%123456%');
\echo '### 8. search + status + package total'
explain (analyze) select count(*) from crm.clients where subscription_status='active' and package_name='Scale' and (company_name ilike '%bakery%' or contact_email ilike '%bakery%' or contact_name ilike '%bakery%');
\echo '### 9. leads search "patel" page'
explain (analyze) select * from crm.leads where (name ilike '%patel%' or email ilike '%patel%' or company_name ilike '%patel%') order by created_at desc, id desc limit 25;
\echo '### 10. stats (counters)'
explain (analyze) select coalesce((select sum(clients) from crm.client_totals), 0)::int, coalesce((select sum(revenue) from crm.client_totals), 0), coalesce((select leads from crm.lead_totals where stage = 'new_enquiry'), 0);
\echo '### 11. the same figures by scanning (what the counters save)'
explain (analyze) select count(*), count(*) filter (where subscription_status='active'), sum(monthly_fee) from crm.clients;

// The crm area's public pieces, for the control panel, the staff portal and the admin layout.
export { ClientManagement } from './ClientManagement';
export { ControlPanelStats, StaffStats } from './ControlPanelStats';
export { StaffClientDatabase } from './StaffClientDatabase';
export { StaffLeads } from './LeadsWorkspace';
export { HeaderSearch } from './HeaderSearch';
export { useSidebarBadges, SIDEBAR_POLL_MS } from './sidebar-badges';

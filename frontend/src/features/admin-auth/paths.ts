/** Where the admin panel's account security page lives (the layout leads an account that must enrol here; issue 32). */
export const ADMIN_ACCOUNT_SECURITY_PATH = '/admin/account-security';

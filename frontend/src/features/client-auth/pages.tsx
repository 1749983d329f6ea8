// Client sign-up and sign-in: one small chunk, apart from the marketing pages.
export { LoginPage } from './LoginPage';
export { SignupPage } from './SignupPage';

import { NotBuiltYet } from '../../shared/NotBuiltYet';

// Public marketing pages (sign-up and log-in are features/client-auth). Each is an honest placeholder until its issue lands.
export const HomePage = () => <NotBuiltYet name="Home" route="/" />;
export const PackageSelectionPage = () => <NotBuiltYet name="Package selection" route="/package-selection" />;
export const WhoWeHelpPage = () => <NotBuiltYet name="Who we help" route="/who-we-help" />;
export const ServicesPage = () => <NotBuiltYet name="Services" route="/services" />;
export const ResourcesPage = () => <NotBuiltYet name="Resources" route="/resources" />;
export const AboutUsPage = () => <NotBuiltYet name="About us" route="/about-us" />;
export const BlogPage = () => <NotBuiltYet name="Blog" route="/blog" />;

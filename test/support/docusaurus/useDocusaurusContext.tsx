import config from '../../../docusaurus.config';

// Test double: the real site config, as Docusaurus passes it to components.
const siteConfig = config;

export default function useDocusaurusContext() {
  return {siteConfig, siteMetadata: {docusaurusVersion: 'test'}, globalData: {}, i18n: {currentLocale: 'en'}};
}

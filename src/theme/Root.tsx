import type {ReactNode} from 'react';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';
import {usePluginData} from '@docusaurus/useGlobalData';
import {ACCESS_PLUGIN_NAME, type AccessGlobalData} from '@site/src/auth/access/audience';
import BaseUrlIssueBanner from '@site/src/components/BaseUrlIssueBanner';
import PortalAuthProvider from '@site/src/auth/PortalAuthProvider';
import AuthNotices from '@site/src/auth/components/AuthNotices';
import type {AuthSettings} from '@site/src/auth/config';
import BrowserTakeover from '@site/src/components/BrowserTakeover';

/**
 * Root wraps the whole app once, above the layout, and survives navigation:
 * the place for the sign-in provider. Children stay server-rendered; the SDK
 * client is created in the browser only (in AuthKitProvider's effect).
 * (Swizzled by wrapping: there is no stock Root to eject.)
 */
export default function Root({children}: {children: ReactNode}): ReactNode {
  const {siteConfig} = useDocusaurusContext();
  const settings = siteConfig.customFields?.auth as AuthSettings | undefined;
  const {audience} = usePluginData(ACCESS_PLUGIN_NAME) as AccessGlobalData;
  return (
    <BrowserTakeover>
      <PortalAuthProvider settings={settings} gate={{audience, baseUrl: siteConfig.baseUrl}}>
        <BaseUrlIssueBanner />
        {children}
        <AuthNotices />
      </PortalAuthProvider>
    </BrowserTakeover>
  );
}

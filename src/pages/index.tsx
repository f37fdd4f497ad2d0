import type {ReactNode} from 'react';
import clsx from 'clsx';
import Link from '@docusaurus/Link';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';
import Layout from '@theme/Layout';
import Heading from '@theme/Heading';
import {DOC_AREAS} from '@site/src/data/docAreas';
import styles from './index.module.css';

function Hero(): ReactNode {
  const {siteConfig} = useDocusaurusContext();
  return (
    <header className={clsx('hero', styles.hero)}>
      <div className="container">
        <Heading as="h1" className="hero__title">
          {siteConfig.title}
        </Heading>
        <p className="hero__subtitle">{siteConfig.tagline}</p>
        <div className={styles.actions}>
          <Link className="button button--primary button--lg" to="/docs/internal-developers/getting-started/introduction">
            Get started
          </Link>
          <Link className="button button--secondary button--outline button--lg" to="/docs/">
            Browse the handbook
          </Link>
        </div>
      </div>
    </header>
  );
}

export default function Home(): ReactNode {
  const {siteConfig} = useDocusaurusContext();
  return (
    <Layout title={siteConfig.tagline} description={`Internal developer documentation: ${siteConfig.tagline}.`}>
      <Hero />
      <main className="container margin-vert--xl">
        <Heading as="h2" className={styles.areasTitle}>
          Documentation areas
        </Heading>
        <ul className={styles.areas}>
          {DOC_AREAS.map((area) => (
            <li key={area.title} className={styles.area}>
              <Link to={area.to} className={clsx('card', styles.card)}>
                <span className={styles.cardTitle}>{area.title}</span>
                <span className={styles.cardText}>{area.description}</span>
              </Link>
            </li>
          ))}
        </ul>
      </main>
    </Layout>
  );
}

import type {ComponentProps, ReactNode} from 'react';

/**
 * A table that may be wider than the page scrolls inside a region keyboard
 * users can focus and scroll (WCAG 2.1.1), announced as a table region.
 */
export default function ScrollableTable(props: ComponentProps<'table'>): ReactNode {
  return (
    // A scroll container must be focusable to be scrolled by keyboard (axe: scrollable-region-focusable).
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
    <div className="portal-table-scroll" role="region" aria-label="Table" tabIndex={0}>
      <table {...props} />
    </div>
  );
}

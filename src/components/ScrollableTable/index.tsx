import {Children, isValidElement, type ComponentProps, type ReactNode} from 'react';

/** The text a React node renders (strings and numbers, through elements' children). */
function textOf(node: ReactNode): string {
  if (typeof node === 'string' || typeof node === 'number') {
    return String(node);
  }
  return Children.toArray(node)
    .map((child) => (isValidElement<{children?: ReactNode}>(child) ? textOf(child.props.children) : textOf(child as ReactNode)))
    .join('');
}

/** The column headings of a table's first row (its `<thead>`), for the region's name. */
function columnHeadings(children: ReactNode): string[] {
  const head = Children.toArray(children).find((child) => isValidElement(child) && child.type === 'thead');
  if (!isValidElement<{children?: ReactNode}>(head)) {
    return [];
  }
  const firstRow = Children.toArray(head.props.children).find((child) => isValidElement(child));
  if (!isValidElement<{children?: ReactNode}>(firstRow)) {
    return [];
  }
  return Children.toArray(firstRow.props.children)
    .map((cell) => textOf(cell).replace(/\s+/g, ' ').trim())
    .filter(Boolean);
}

/**
 * A table that may be wider than the page scrolls inside a region keyboard
 * users can focus and scroll (WCAG 2.1.1), announced as a table region named
 * by its columns ("Table: Variable, Required, Meaning"), so a page's regions
 * can be told apart in a screen reader's list of landmarks.
 */
export default function ScrollableTable(props: ComponentProps<'table'>): ReactNode {
  const columns = columnHeadings(props.children);
  const label = columns.length > 0 ? `Table: ${columns.join(', ')}` : 'Table';
  return (
    // A scroll container must be focusable to be scrolled by keyboard (axe: scrollable-region-focusable).
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
    <div className="portal-table-scroll" role="region" aria-label={label} tabIndex={0}>
      <table {...props} />
    </div>
  );
}

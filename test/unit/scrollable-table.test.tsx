/**
 * Wide tables scroll in a focusable region named by the table's columns, so
 * the regions of a page can be told apart (src/components/ScrollableTable).
 */
import {render, screen} from '@testing-library/react';
import ScrollableTable from '../../src/components/ScrollableTable';

describe('scrollable table', () => {
  it('names its region by the column headings, inline code included', () => {
    render(
      <ScrollableTable>
        <thead>
          <tr>
            <th>Variable</th>
            <th>
              Local <code>default</code>
            </th>
            <th>Meaning</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>PORT</td>
            <td>3000</td>
            <td>Where it listens</td>
          </tr>
        </tbody>
      </ScrollableTable>,
    );
    const region = screen.getByRole('region', {name: 'Table: Variable, Local default, Meaning'});
    expect(region).toHaveAttribute('tabindex', '0');
    expect(region.querySelector('table')).not.toBeNull();
  });

  it('falls back to "Table" when there is no heading row', () => {
    render(
      <ScrollableTable>
        <tbody>
          <tr>
            <td>only data</td>
          </tr>
        </tbody>
      </ScrollableTable>,
    );
    expect(screen.getByRole('region', {name: 'Table'})).toBeInTheDocument();
  });
});

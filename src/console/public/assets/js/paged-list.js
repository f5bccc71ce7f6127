// A list shown a page at a time (under a filter form): new filters start again at page 1.
import { h, render as fill } from './dom.js';
import { fail, pager } from './ui.js';

/**
 * `fetchPage(query)` asks for one page (`query` is the filters plus page and page_size);
 * `show(result)` draws it. The pager goes in `pagerBox`, unless `paged()` says there are no pages.
 */
export function pagedList({ pageSize, fetchPage, show, paged = () => true }) {
  let filters = {};
  let page = 1;
  const pagerBox = h('div');

  async function load() {
    try {
      const result = await fetchPage({ ...filters, page, page_size: pageSize });
      show(result);
      fill(pagerBox, paged() ? pager(page, pageSize, result.total, (next) => {
        page = next;
        load();
      }) : null);
    } catch (error) {
      fail(error);
    }
  }

  /** Applies new filters from the first page. */
  function filter(next) {
    filters = next;
    page = 1;
    return load();
  }

  return { pagerBox, load, filter };
}

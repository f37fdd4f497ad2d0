/**
 * The navbar's search item renders @theme/SearchBar; the classic theme's own
 * is empty (a search plugin is expected to provide one). This is the
 * portal's: src/components/search/SearchBox.tsx.
 */
export {default} from '@site/src/components/search/SearchBox';

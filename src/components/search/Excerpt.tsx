import type {ReactNode} from 'react';
import type {ExcerptPart} from './pagefind';

/** An excerpt with the query's words marked (rendered as text: never the index's HTML). */
export default function Excerpt({parts}: {parts: ExcerptPart[]}): ReactNode {
  return parts.map((part, index) => (part.marked ? <mark key={index}>{part.text}</mark> : <span key={index}>{part.text}</span>));
}

import { useEffect, useRef, useState } from 'react';
import { Icon } from './icons';
import './layouts.css';

export const SEARCH_DELAY_MS = 350;

/**
 * The top bar's search: reports the text once typing pauses (or at once on Enter), and
 * follows `value` when it changes from outside, e.g. on Back.
 */
export function SearchBox({
  value,
  onSearch,
  placeholder = 'Search…',
  delayMs = SEARCH_DELAY_MS,
}: {
  value: string;
  onSearch: (text: string) => void;
  placeholder?: string;
  delayMs?: number;
}) {
  const [text, setText] = useState(value);
  const reported = useRef(value);
  const onSearchRef = useRef(onSearch);
  useEffect(() => {
    onSearchRef.current = onSearch;
  });

  useEffect(() => {
    if (value !== reported.current) {
      reported.current = value;
      setText(value);
    }
  }, [value]);

  const report = (next: string) => {
    if (next === reported.current) return;
    reported.current = next;
    onSearchRef.current(next);
  };

  useEffect(() => {
    if (text === reported.current) return;
    const timer = setTimeout(() => report(text), delayMs);
    return () => clearTimeout(timer);
  }, [text, delayMs]);

  return (
    <div className="search-box" role="search">
      <Icon name="search" size={16} />
      <input
        type="search"
        aria-label="Search"
        placeholder={placeholder}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') report(text);
        }}
      />
    </div>
  );
}

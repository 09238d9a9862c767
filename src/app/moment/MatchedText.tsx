import { matchParts } from './matchWords';

/** A line's text with the search's words marked. */
export function MatchedText({ text, terms }: { text: string; terms: readonly string[] }) {
  return (
    <>
      {matchParts(text, terms).map((p, j) =>
        p.match ? (
          <mark key={j} className="moment-lines__match">
            {p.text}
          </mark>
        ) : (
          p.text
        ),
      )}
    </>
  );
}

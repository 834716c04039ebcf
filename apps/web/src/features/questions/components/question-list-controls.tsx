import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { ORDERS, type Order } from '@porpoise/core';
import { paths } from '@/config/paths';
import { ORDER_LABELS, homePath, isOrder, searchBoxText, type HomeQuery } from '../home-query';
import { TagsIcon } from '@/components/icons';
import { SearchIcon } from './question-icons';
import { takeSearchFocus } from '@/hooks/use-keyboard-shortcuts';

/**
 * The search box (Enter goes to /home?search=...). Mount it with a key per query so that
 * it shows the current search, or the current tag in square brackets (spec section 2).
 */
export function QuestionSearch({ query }: { query: HomeQuery }) {
  const navigate = useNavigate();
  const inputId = useId();
  const [text, setText] = useState(() => searchBoxText(query));
  // Arrived by the '/' shortcut from a page without a search box (hooks/use-keyboard-shortcuts.ts): once.
  const [focusSearch] = useState(takeSearchFocus);

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const search = text.trim();
    void navigate(paths.home({ search, order: query.order === 'newest' ? undefined : query.order }));
  }

  return (
    <form role="search" className="q-search" onSubmit={handleSubmit}>
      <label className="visually-hidden" htmlFor={inputId}>
        Search questions
      </label>
      <SearchIcon className="q-search__icon" />
      <input
        id={inputId}
        className="q-search__input"
        type="search"
        name="search"
        placeholder="Search..."
        value={text}
        onChange={(event) => setText(event.target.value)}
        enterKeyHint="search"
        autoComplete="off"
        autoFocus={focusSearch}
      />
    </form>
  );
}

/** The four sort buttons and the order selector: two controls for the one `order` in the URL. */
export function QuestionOrderControls({ query }: { query: HomeQuery }) {
  const navigate = useNavigate();
  const selectId = useId();

  function choose(order: Order) {
    void navigate(
      paths.home({ search: query.search, tag: query.tag, order, myTags: query.myTags ? 'true' : undefined }),
    );
  }

  return (
    <div className="q-order">
      <div className="q-sort" role="group" aria-label="Sort questions">
        {ORDERS.map((order) => (
          <button
            key={order}
            type="button"
            className="q-sort__button"
            aria-pressed={query.order === order}
            onClick={() => choose(order)}
          >
            {ORDER_LABELS[order]}
          </button>
        ))}
      </div>
      <div className="q-order__select">
        <label htmlFor={selectId}>Order</label>
        <select
          id={selectId}
          className="q-select"
          value={query.order}
          onChange={(event) => {
            if (isOrder(event.target.value)) choose(event.target.value);
          }}
        >
          {ORDERS.map((order) => (
            <option key={order} value={order}>
              {ORDER_LABELS[order]}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}

/**
 * 'My tags' (docs/product.md section 11): a toggle that limits the list to questions in the tags
 * the member follows (`myTags=true` in the URL), keeping the order and search; it replaces a tag.
 */
export function MyTagsFilter({ query }: { query: HomeQuery }) {
  const navigate = useNavigate();
  return (
    <button
      type="button"
      className="q-filter"
      aria-pressed={query.myTags}
      onClick={() => void navigate(homePath({ ...query, tag: '', myTags: !query.myTags }))}
    >
      <TagsIcon className="q-filter__icon" width="16" height="16" />
      My tags
    </button>
  );
}

import { memo, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { choiceLabel, pickerOptions, type ClientChoice, type PickerClient } from './clientChoice.ts';

interface Props {
  clients: readonly PickerClient[];
  loading: boolean;
  choice: ClientChoice;
  onChoose: (choice: ClientChoice) => void;
}

/**
 * The client picker: a combobox with typeahead over the client list loaded on open (ARIA 1.2
 * combobox with a listbox popup). Options: 'No client', the matching clients, 'Add New Client'.
 */
export const ClientPicker = memo(function ClientPicker({ clients, loading, choice, onChoose }: Props) {
  const id = useId();
  const inputId = `${id}-input`;
  const listId = `${id}-list`;
  const selectedLabel = choiceLabel(choice, clients);
  const [open, setOpen] = useState(false);
  /** null while not typing: the field shows the chosen client. */
  const [typed, setTyped] = useState<string | null>(null);
  const [active, setActive] = useState(0);
  const inputRef = useRef<HTMLInputElement>(null);

  const { options, hidden } = useMemo(() => pickerOptions(clients, typed ?? ''), [clients, typed]);
  const activeIndex = Math.min(active, options.length - 1);
  const optionId = (i: number) => `${id}-opt-${options[i]?.id ?? i}`;

  const choose = (i: number) => {
    const option = options[i];
    if (!option) return;
    onChoose(option.choice);
    setTyped(null);
    setOpen(false);
  };

  const openList = () => {
    if (open) return;
    const current = options.findIndex((o) => JSON.stringify(o.choice) === JSON.stringify(choice));
    setActive(current >= 0 ? current : 0);
    setOpen(true);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    switch (e.key) {
      case 'ArrowDown':
        e.preventDefault();
        if (!open) openList();
        else setActive(Math.min(activeIndex + 1, options.length - 1));
        break;
      case 'ArrowUp':
        e.preventDefault();
        if (!open) openList();
        else setActive(Math.max(activeIndex - 1, 0));
        break;
      case 'Home':
        if (open) {
          e.preventDefault();
          setActive(0);
        }
        break;
      case 'End':
        if (open) {
          e.preventDefault();
          setActive(options.length - 1);
        }
        break;
      case 'Enter':
        if (open) {
          e.preventDefault();
          choose(activeIndex);
        }
        break;
      case 'Escape':
        if (open || typed !== null) {
          e.preventDefault();
          setOpen(false);
          setTyped(null);
        }
        break;
      default:
        break;
    }
  };

  return (
    <div className="calc-picker">
      <label htmlFor={inputId} className="field__label">
        Client
      </label>
      <div className="calc-picker__box">
        <input
          ref={inputRef}
          id={inputId}
          className="input calc-picker__input"
          type="text"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={open}
          aria-controls={listId}
          aria-activedescendant={open ? optionId(activeIndex) : undefined}
          aria-describedby={`${id}-hint`}
          autoComplete="off"
          autoCapitalize="words"
          spellCheck={false}
          enterKeyHint="done"
          placeholder="No client — type to search"
          value={typed ?? selectedLabel}
          onFocus={(e) => {
            e.currentTarget.select();
            openList();
          }}
          onClick={openList}
          onBlur={() => {
            setOpen(false);
            setTyped(null);
          }}
          onChange={(e) => {
            setTyped(e.target.value);
            setActive(e.target.value.trim() === '' ? 0 : 1);
            setOpen(true);
          }}
          onKeyDown={onKeyDown}
        />
        <button
          type="button"
          className="calc-picker__toggle"
          tabIndex={-1}
          aria-hidden="true"
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => {
            if (open) setOpen(false);
            else {
              inputRef.current?.focus();
              openList();
            }
          }}
        >
          <svg viewBox="0 0 20 20" width="20" height="20" aria-hidden="true" focusable="false">
            <path d="M5 7.5l5 5 5-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </button>
        <ul id={listId} role="listbox" aria-label="Clients" className="calc-picker__list" hidden={!open} onMouseDown={(e) => e.preventDefault()}>
          {options.map((o, i) => (
            <li
              key={o.id}
              id={optionId(i)}
              role="option"
              aria-selected={i === activeIndex}
              className={`calc-picker__option${o.choice.kind === 'new' ? ' calc-picker__option--new' : ''}${o.choice.kind === 'none' ? ' calc-picker__option--none' : ''}`}
              onClick={() => choose(i)}
              onMouseMove={() => {
                if (i !== activeIndex) setActive(i);
              }}
            >
              <span className="calc-picker__option-label">{o.choice.kind === 'new' ? `+ ${o.label}` : o.label}</span>
              {o.hint && <span className="calc-picker__option-hint">{o.hint}</span>}
            </li>
          ))}
          {loading && (
            <li role="presentation" className="calc-picker__note">
              Loading clients...
            </li>
          )}
          {hidden > 0 && (
            <li role="presentation" className="calc-picker__note">
              {hidden} more — keep typing to narrow the list
            </li>
          )}
        </ul>
      </div>
      <p id={`${id}-hint`} className="field__hint">
        Pick a client, choose no client, or add a new one.
      </p>
    </div>
  );
});

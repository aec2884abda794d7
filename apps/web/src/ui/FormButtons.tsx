interface FormButtonsProps {
  /** The row's class (e.g. 'detail-form__buttons'). */
  className: string;
  /** The submit button's words, already saying when it is busy (e.g. 'Saving...'). */
  submit: string;
  /** While saving: the submit button is disabled and busy, and so is Cancel unless `cancelWhileBusy`. */
  busy: boolean;
  onCancel: () => void;
  /** A red submit button (e.g. Decline) instead of the primary one. */
  danger?: boolean;
  /** Cancel stays enabled while saving. */
  cancelWhileBusy?: boolean;
}

/** A form's last row: its submit button, then Cancel. */
export function FormButtons({ className, submit, busy, onCancel, danger, cancelWhileBusy }: FormButtonsProps) {
  return (
    <div className={className}>
      <button type="submit" className={danger ? 'button button--danger' : 'button button--primary'} disabled={busy} aria-busy={busy}>
        {submit}
      </button>
      <button type="button" className="button button--ghost" onClick={onCancel} disabled={cancelWhileBusy ? undefined : busy}>
        Cancel
      </button>
    </div>
  );
}

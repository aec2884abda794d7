// The optional finger signature: a canvas a thumb can draw on, and Clear. The drawing is read as a
// PNG when the client accepts.
import { forwardRef, useEffect, useImperativeHandle, useRef, useState } from 'react';
import SignaturePad from 'signature_pad';

export interface SignatureHandle {
  /** The signature as `data:image/png;base64,…`, or null when nothing was drawn. */
  read(): string | null;
}

/** Tall enough to sign with a finger, short enough to leave the Accept button in view. */
const HEIGHT_PX = 160;

/** `idPrefix`: the field's element ids start with it (a page with more than one signature gives each its own). */
export const SignatureField = forwardRef<SignatureHandle, { disabled?: boolean; idPrefix?: string }>(function SignatureField({ disabled, idPrefix = 'client-signature' }, ref) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const pad = useRef<SignaturePad | null>(null);
  const [signed, setSigned] = useState(false);

  useEffect(() => {
    const el = canvas.current;
    if (!el || !el.getContext('2d')) return undefined;
    const instance = new SignaturePad(el, { minWidth: 0.8, maxWidth: 2.6, penColor: '#111827' });
    pad.current = instance;
    const onEnd = () => setSigned(!instance.isEmpty());
    instance.addEventListener('endStroke', onEnd);

    // The canvas's pixels follow its width on the screen (and the screen's density, up to 2× to keep
    // the PNG small); a resize keeps what was drawn.
    let width = 0;
    const fit = () => {
      const cssWidth = el.clientWidth;
      if (cssWidth === 0 || cssWidth === width) return;
      width = cssWidth;
      const ratio = Math.min(Math.max(window.devicePixelRatio || 1, 1), 2);
      const drawn = instance.toData();
      el.width = Math.round(cssWidth * ratio);
      el.height = Math.round(HEIGHT_PX * ratio);
      el.getContext('2d')?.scale(ratio, ratio);
      instance.clear();
      if (drawn.length > 0) instance.fromData(drawn);
    };
    fit();
    window.addEventListener('resize', fit);
    return () => {
      window.removeEventListener('resize', fit);
      instance.removeEventListener('endStroke', onEnd);
      instance.off();
      pad.current = null;
    };
  }, []);

  useEffect(() => {
    if (!pad.current) return;
    if (disabled) pad.current.off();
    else pad.current.on();
  }, [disabled]);

  useImperativeHandle(ref, () => ({
    read: () => (pad.current && !pad.current.isEmpty() ? pad.current.toDataURL('image/png') : null),
  }));

  const clear = () => {
    pad.current?.clear();
    setSigned(false);
  };

  return (
    <div className="field client-signature">
      <p className="field__label" id={`${idPrefix}-label`}>
        Sign with your finger (optional)
      </p>
      <canvas
        ref={canvas}
        className="client-signature__canvas"
        style={{ height: `${HEIGHT_PX}px` }}
        role="img"
        aria-labelledby={`${idPrefix}-label`}
        aria-describedby={`${idPrefix}-hint`}
        data-testid="signature-pad"
      />
      <div className="client-signature__row">
        <p id={`${idPrefix}-hint`} className="field__hint">
          {signed ? 'Signed.' : 'Draw your signature in the box, or leave it empty.'}
        </p>
        <button type="button" className="button button--ghost button--compact client-signature__clear" onClick={clear} disabled={disabled || !signed}>
          Clear<span className="visually-hidden"> the signature</span>
        </button>
      </div>
    </div>
  );
});

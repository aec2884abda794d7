// /app/setup: the first-run set-up after sign-up, one question a screen on a phone. Each step is
// saved as it is left (business details through /business-settings, with the same checks as
// Settings; the trade and default payment terms through /setup), and the step reached is kept on
// the server, so it opens where the tradie left off. Skippable a step at a time, or all of it.
import '../settings/settings.css';
import './setup.css';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { SETUP_STEPS, TRADE_LABELS, TRADES, type BusinessSettingsRecord, type SetupRecord, type SetupStep } from '@tradie/contracts';
import { PAYMENT_TERMS, type CheckedBusinessField } from '@tradie/domain';
import { api } from '../../api/client.ts';
import { serverDetail } from '../../machines/subscription.ts';
import { LogoSection, numberCheck } from '../settings/BusinessTab.tsx';
import { Field } from '../settings/fields.tsx';
import { deleteLogo, saveBusinessSettings, uploadLogo } from '../settings/queries.ts';
import { businessSettingsKey, businessSettingsQuery } from '../shared/queries.ts';
import { useCommand } from '../shared/command.ts';
import { RadioGroup } from '../../ui/RadioGroup.tsx';
import { logoTooLarge, numberProblems, SETTINGS_TEXT, type NumberProblem } from '../settings/settingsForm.ts';
import { LoadingLine } from '../../ui/Status.tsx';
import { nextStep, previousStep, SETUP_TEXT, setupBodyAfter, settingsBodyFor, setupValuesOf, STEP_TITLES, stepNumber, type SetupValues } from './setupSteps.ts';
import { saveSetup, setupKey, setupQuery } from './queries.ts';

export function SetupScreen() {
  const setup = useQuery(setupQuery(api));
  const settings = useQuery(businessSettingsQuery(api));
  if (!setup.data || !settings.data) {
    return (
      <section className="screen setup" aria-labelledby="setup-title">
        <h1 id="setup-title" className="screen-title">
          {SETUP_TEXT.title}
        </h1>
        <LoadingLine>Loading...</LoadingLine>
      </section>
    );
  }
  return <SetupSteps setup={setup.data} settings={settings.data} />;
}

function SetupSteps({ setup, settings }: { setup: SetupRecord; settings: BusinessSettingsRecord }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  // A finished or skipped set-up opened again starts from the beginning.
  const [step, setStep] = useState<SetupStep>(setup.finished ? 'business' : setup.step);
  const [values, setValues] = useState<SetupValues>(() => setupValuesOf(settings, setup));
  const [problems, setProblems] = useState<NumberProblem[]>([]);
  const [keep, setKeep] = useState<CheckedBusinessField[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [logoUrl, setLogoUrl] = useState(settings.logo_url);
  const heading = useRef<HTMLHeadingElement>(null);
  const first = useRef(true);
  useEffect(() => {
    // Each new step is announced and starts at the top; not on the first load.
    if (first.current) {
      first.current = false;
      return;
    }
    heading.current?.focus();
    window.scrollTo?.({ top: 0 });
  }, [step]);

  const set = <K extends keyof SetupValues>(key: K, value: SetupValues[K]) => setValues((v) => ({ ...v, [key]: value }));
  const leave = () => void navigate({ to: '/app/home' });

  const move = useCommand({
    run: async ({ save, to }: { save: boolean; to?: SetupStep | 'later' }) => {
      if (save) {
        const body = settingsBodyFor(step, values, keep);
        if (body) queryClient.setQueryData(businessSettingsKey, await saveBusinessSettings(api, body));
      }
      const setupBody = to === 'later' ? { finished: 'skipped' as const } : to ? { step: to } : setupBodyAfter(step, values, save);
      return saveSetup(api, setupBody);
    },
    onDone: (saved) => {
      queryClient.setQueryData(setupKey, saved);
      setProblems([]);
      setKeep([]);
      setError(null);
      if (saved.finished) leave();
      else setStep(saved.step);
    },
    onFailed: (_, e) => {
      const refused = numberProblems(e, values);
      setProblems(refused);
      // A refused number is said by its field, once.
      setError(refused.length > 0 ? null : (serverDetail(e) ?? SETUP_TEXT.failed));
    },
  });
  const busy = move.pending;

  const upload = useCommand({
    run: (file: File) => uploadLogo(api, file),
    onDone: ({ logo_url }) => {
      setLogoUrl(logo_url);
      setError(null);
      void queryClient.invalidateQueries({ queryKey: businessSettingsKey });
    },
    onFailed: (_, e) => setError(serverDetail(e) ?? SETTINGS_TEXT.logoUploadFailed),
  });
  const removeLogo = useCommand({
    run: () => deleteLogo(api),
    onDone: () => setLogoUrl(''),
    onFailed: () => setError(SETTINGS_TEXT.logoDeleteFailed),
  });

  const checks = { problems: problems.filter((p) => values[p.field as keyof SetupValues] === p.value), keep, onKeep: (field: CheckedBusinessField, kept: boolean) => setKeep((k) => (kept ? [...k, field] : k.filter((f) => f !== field))) };
  const n = stepNumber(step);
  const last = nextStep(step) === null;
  const back = previousStep(step);

  return (
    <section className="screen setup" aria-labelledby="setup-title">
      <p className="setup__progress">
        <span>{SETUP_TEXT.title}</span>
        <span>
          Step {n} of {SETUP_STEPS.length}
        </span>
      </p>
      <progress className="setup__bar" max={SETUP_STEPS.length} value={n} aria-label={`Step ${n} of ${SETUP_STEPS.length}`} />
      <h1 id="setup-title" className="screen-title setup__title" ref={heading} tabIndex={-1}>
        {STEP_TITLES[step]}
      </h1>
      <form
        className="card setup__card"
        onSubmit={(e) => {
          e.preventDefault();
          if (!busy) move.run({ save: true });
        }}
        aria-busy={busy}
      >
        {step === 'business' && (
          <Field id="setup-business-name" label="Business name" value={values.business_name} onChange={(v) => set('business_name', v)} autoComplete="organization" hint="As it should appear on your quotes and invoices." />
        )}
        {step === 'gst' && (
          <>
            <label className="setup__check" htmlFor="setup-gst-registered">
              <input id="setup-gst-registered" type="checkbox" role="switch" checked={values.gst_registered} onChange={(e) => set('gst_registered', e.target.checked)} /> Registered for GST
            </label>
            <p className="field__hint">Registered: your quotes and invoices add GST and show your GST number. Not registered: no GST is added.</p>
            {values.gst_registered && (
              <Field id="setup-gst-number" label="GST number" value={values.gst_number} onChange={(v) => set('gst_number', v)} inputMode="numeric" hint="Your IRD number, like 123-456-789." {...numberCheck('gst_number', checks)} />
            )}
          </>
        )}
        {step === 'bank' && (
          <>
            <Field id="setup-bank-account-name" label="Account name" value={values.bank_account_name} onChange={(v) => set('bank_account_name', v)} />
            <Field
              id="setup-bank-account-number"
              label="Account number"
              value={values.bank_account_number}
              onChange={(v) => set('bank_account_number', v)}
              inputMode="numeric"
              hint="Printed on your invoices so clients know where to pay. Like 12-3456-0123456-00."
              {...numberCheck('bank_account_number', checks)}
            />
          </>
        )}
        {step === 'contact' && (
          <>
            <Field id="setup-phone" label="Phone for clients" type="tel" inputMode="tel" autoComplete="tel" value={values.phone} onChange={(v) => set('phone', v)} />
            <Field id="setup-email" label="Email for clients" type="email" inputMode="email" autoComplete="email" value={values.email} onChange={(v) => set('email', v)} hint="On every quote, invoice and email, so clients can call or write to you." />
          </>
        )}
        {step === 'logo' && (
          <LogoSection
            logoUrl={logoUrl}
            uploading={upload.pending}
            deleting={removeLogo.pending}
            onUpload={(file) => (logoTooLarge(file) ? setError(SETTINGS_TEXT.logoTooLarge) : upload.run(file))}
            onRemove={() => removeLogo.run()}
          />
        )}
        {step === 'terms' && (
          <RadioGroup
            look="list"
            name="setup-terms"
            legend="Payment terms for new clients"
            options={PAYMENT_TERMS.map((t) => ({ value: t, label: t }))}
            value={values.default_payment_terms}
            onChange={(t) => set('default_payment_terms', t)}
          />
        )}
        {step === 'trade' && (
          <RadioGroup
            look="list"
            className="setup__trades"
            name="setup-trade"
            legend="Your trade"
            options={TRADES.map((t) => ({ value: t, label: TRADE_LABELS[t] }))}
            value={values.trade}
            onChange={(t) => set('trade', t)}
          />
        )}

        {error && (
          <p className="callout callout--error setup__error" role="alert">
            {error}
          </p>
        )}
        <div className="setup__actions">
          <button type="submit" className="button button--accent" disabled={busy}>
            {busy ? SETUP_TEXT.saving : last ? SETUP_TEXT.finish : SETUP_TEXT.next}
          </button>
          <button type="button" className="button button--secondary" disabled={busy} onClick={() => move.run({ save: false })}>
            {SETUP_TEXT.skip}
          </button>
          {back && (
            <button type="button" className="button button--ghost" disabled={busy} onClick={() => move.run({ save: false, to: back })}>
              {SETUP_TEXT.back}
            </button>
          )}
        </div>
      </form>
      <button type="button" className="button button--ghost setup__later" disabled={busy} onClick={() => move.run({ save: false, to: 'later' })}>
        {SETUP_TEXT.later}
      </button>
    </section>
  );
}

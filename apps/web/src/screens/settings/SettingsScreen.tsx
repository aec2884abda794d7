import './settings.css';
import './settings-tabs.css';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useActorRef } from '@xstate/react';
import { useEffect, useState, type ReactNode } from 'react';
import type { BusinessSettingsRecord } from '@tradie/contracts';
import type { CheckedBusinessField } from '@tradie/domain';
import { api } from '../../api/client.ts';
import { useSessionUser } from '../../app/useAuth.ts';
import { createSubscriptionMachine, serverDetail } from '../../machines/subscription.ts';
import { createXeroConnectMachine } from '../../machines/xeroConnect.ts';
import { useCommand } from '../shared/command.ts';
import { AccountTab } from './AccountTab.tsx';
import { BillingTab } from './BillingTab.tsx';
import { BusinessDetails, LogoSection } from './BusinessTab.tsx';
import { IntegrationsTab } from './IntegrationsTab.tsx';
import { PAYMENTS_TEXT, PaymentsTab } from './PaymentsTab.tsx';
import { PricingTab } from './PricingTab.tsx';
import { RemindersTab } from './RemindersTab.tsx';
import { bannerTone, useBanner } from './banner.ts';
import { SecurityTab } from './SecurityTab.tsx';
import { deleteLogo, saveBusinessSettings, uploadLogo } from './queries.ts';
import { SETTINGS_TABS, type SettingsTab } from './search.ts';
import { formFromRecord, keptNumbers, logoTooLarge, numberProblems, SETTINGS_TEXT, settingsBody, visibleWarnings, type NumberProblem, type SettingsFormValues } from './settingsForm.ts';
import { CurrencyTab, EmailTab, ProfileTab } from './SimpleTabs.tsx';
import { LoadingLine } from '../../ui/Status.tsx';
import { TabList } from '../../ui/TabList.tsx';
import { businessSettingsKey, businessSettingsQuery } from '../shared/queries.ts';

/** The tabs whose fields 'Save Settings' sends (business, email and currency together). */
const SAVED_TABS: ReadonlySet<SettingsTab> = new Set(['business', 'email', 'currency']);

const tabId = (t: SettingsTab) => `settings-tab-${t}`;
const panelId = (t: SettingsTab) => `settings-panel-${t}`;

export function SettingsScreen() {
  const search = useSearch({ from: '/app/settings' });
  const navigate = useNavigate({ from: '/app/settings' });
  const tab: SettingsTab = search.tab ?? 'profile';
  const user = useSessionUser();
  const queryClient = useQueryClient();
  const { message, show } = useBanner();

  // ---- the machines: started once for the screen, so switching tabs keeps a connection going ----
  const [subscriptionLogic] = useState(() => createSubscriptionMachine({ api, goTo: (url) => window.location.assign(url) }));
  const subscription = useActorRef(subscriptionLogic, { input: { checkoutReturn: search.checkout ?? null } });
  const [xeroLogic] = useState(() =>
    createXeroConnectMachine({
      api,
      open: (url, target, features) => window.open(url, target, features),
      screen: () => ({ left: window.screenX, top: window.screenY, width: window.outerWidth, height: window.outerHeight }),
    }),
  );
  const xero = useActorRef(xeroLogic);

  useEffect(() => {
    const subs = [subscription.on('message', (e) => show(e.text, e.failure)), xero.on('message', (e) => show(e.text, e.failure))];
    // Loading failures are logged only.
    subs.push(subscription.on('log', (e) => console.error(`Could not load the ${e.what}`, e.error)));
    subs.push(xero.on('log', (e) => console.error(`Could not load the ${e.what}`, e.error)));
    return () => subs.forEach((s) => s.unsubscribe());
  }, [subscription, xero, show]);

  // Stripe's return (…&checkout=success&session_id=…): the machine has it; the address drops it, so a
  // reload does not wait for a payment again.
  useEffect(() => {
    if (search.checkout) void navigate({ search: { tab: search.tab ?? 'billing' }, replace: true });
  }, [search.checkout, search.tab, navigate]);
  // Back from Stripe's onboarding for card payments: the Payments tab asks for the new state itself.
  useEffect(() => {
    if (!search.connect) return;
    if (search.connect === 'refresh') show(PAYMENTS_TEXT.linkExpired, false);
    void navigate({ search: { tab: search.tab ?? 'payments' }, replace: true });
  }, [search.connect, search.tab, navigate, show]);

  // ---- business settings: loaded once into the form; the form is what Save Settings sends ----
  const settings = useQuery(businessSettingsQuery(api));
  const [form, setForm] = useState<SettingsFormValues | null>(null);
  const loaded = settings.data;
  useEffect(() => {
    if (loaded && form === null) setForm(formFromRecord(loaded));
  }, [loaded, form]);
  const loadError = settings.error;
  useEffect(() => {
    if (loadError) console.error('Could not load the business settings', loadError);
  }, [loadError]);

  const change = (field: keyof SettingsFormValues, value: string) => setForm((f) => (f ? { ...f, [field]: value } : f));

  // Numbers the last save refused (shown by their fields), and those the tradie chose to keep as typed.
  const [problems, setProblems] = useState<NumberProblem[]>([]);
  const [keep, setKeep] = useState<CheckedBusinessField[]>([]);
  const save = useCommand({
    run: (values: SettingsFormValues) => saveBusinessSettings(api, settingsBody(values, keep)),
    onDone: (saved) => {
      queryClient.setQueryData(businessSettingsKey, saved);
      setForm(formFromRecord(saved));
      setProblems([]);
      setKeep([]);
      show(keptNumbers(saved) ? SETTINGS_TEXT.savedWithKept : SETTINGS_TEXT.saved, false);
    },
    onFailed: (_, e, sent) => {
      const refused = numberProblems(e, sent);
      setProblems(refused);
      if (refused.length > 0) void navigate({ search: { tab: 'business' }, replace: true });
      show(refused.length > 0 ? `Error saving settings: ${serverDetail(e)}` : (serverDetail(e) ?? SETTINGS_TEXT.saveFailed), true);
    },
  });
  const onKeep = (field: CheckedBusinessField, kept: boolean) => setKeep((k) => (kept ? [...k.filter((f) => f !== field), field] : k.filter((f) => f !== field)));

  const setLogoUrl = (logoUrl: string) =>
    // A new logo (or none) also ends a warning about the old one.
    queryClient.setQueryData<BusinessSettingsRecord>(businessSettingsKey, (prev) =>
      prev ? { ...prev, logo_url: logoUrl, warnings: prev.warnings.filter((w) => w.field !== 'logo_url') } : prev,
    );

  const upload = useCommand({
    run: (file: File) => uploadLogo(api, file),
    onDone: ({ logo_url }) => {
      setLogoUrl(logo_url);
      show(SETTINGS_TEXT.logoUploaded, false);
    },
    onFailed: (_, e) => show(serverDetail(e) ?? SETTINGS_TEXT.logoUploadFailed, true),
  });

  const removeLogo = useCommand({
    run: () => deleteLogo(api),
    onDone: () => {
      setLogoUrl('');
      show(SETTINGS_TEXT.logoDeleted, false);
    },
    onFailed: () => show(SETTINGS_TEXT.logoDeleteFailed, true),
  });

  const onUpload = (file: File) => {
    if (logoTooLarge(file)) {
      show(SETTINGS_TEXT.logoTooLarge, true);
      return;
    }
    upload.run(file);
  };
  const onRemove = () => {
    if (window.confirm(SETTINGS_TEXT.logoDeleteConfirm)) removeLogo.run();
  };

  // ---- tabs: the one shown is in the address ----
  const select = (t: SettingsTab) => void navigate({ search: { tab: t }, replace: true });

  const saving = save.pending;
  const formReady = form !== null;
  const tone = message ? bannerTone(message.text) : null;

  const savedPanel = (content: (values: SettingsFormValues) => ReactNode) =>
    form ? (
      content(form)
    ) : loadError ? (
      <div className="card">
        <button type="button" className="button button--secondary" onClick={() => void settings.refetch()}>
          Load settings again
        </button>
      </div>
    ) : (
      <LoadingLine>Loading settings...</LoadingLine>
    );

  return (
    <section className="screen settings" aria-labelledby="settings-title">
      <h1 id="settings-title" className="screen-title">
        Settings
      </h1>
      <p className="screen__subtitle">Manage your account, business details, and invoice preferences</p>

      <TabList tabs={SETTINGS_TABS} selected={tab} onSelect={select} label="Settings sections" tabId={tabId} panelId={panelId} className="settings-tabs" tabClassName="settings-tab" />

      <form
        className="settings-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (form && !saving) save.run(form);
        }}
      >
        <div role="tabpanel" id={panelId(tab)} aria-labelledby={tabId(tab)} className="settings-panel">
          {tab === 'profile' && <ProfileTab user={user} />}
          {tab === 'account' && <AccountTab />}
          {tab === 'billing' && <BillingTab actor={subscription} />}
          {tab === 'business' && (
            <>
              <LogoSection
                logoUrl={loaded?.logo_url}
                uploading={upload.pending}
                deleting={removeLogo.pending}
                onUpload={onUpload}
                onRemove={onRemove}
                warning={loaded?.warnings.find((w) => w.field === 'logo_url')?.message}
              />
              {savedPanel((values) => (
                <BusinessDetails
                  values={values}
                  onChange={change}
                  warnings={visibleWarnings(values, loaded)}
                  problems={problems.filter((p) => values[p.field] === p.value)}
                  keep={keep}
                  onKeep={onKeep}
                />
              ))}
            </>
          )}
          {tab === 'pricing' && <PricingTab onMessage={show} />}
          {tab === 'email' && savedPanel((values) => <EmailTab values={values} onChange={change} />)}
          {tab === 'integrations' && <IntegrationsTab actor={xero} show={show} />}
          {tab === 'payments' && <PaymentsTab onMessage={show} />}
          {tab === 'reminders' && <RemindersTab onMessage={show} />}
          {tab === 'currency' && <CurrencyTab />}
          {tab === 'security' && <SecurityTab onFailure={(text) => show(text, true)} />}
        </div>

        {/* Kept in view at the bottom of the screen: the message banner and the one Save Settings. */}
        <div className="settings-dock">
          <div className="settings-dock__messages" role="status" aria-live="polite">
            {message && (
              <p key={message.n} className={`callout callout--${tone} settings-banner settings-banner--${tone}`} data-testid="settings-banner">
                {message.text}
              </p>
            )}
          </div>
          {SAVED_TABS.has(tab) && (
            <button type="submit" className="button button--accent settings-dock__save" disabled={!formReady || saving} aria-busy={saving}>
              {saving ? 'Saving...' : 'Save Settings'}
            </button>
          )}
        </div>
      </form>
    </section>
  );
}

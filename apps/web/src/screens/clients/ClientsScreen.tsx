import './clients.css';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { ClientRecord } from '@tradie/contracts';
import { api, errorDetail } from '../../api/client.ts';
import { useCommand } from '../shared/command.ts';
import { PlusIcon } from '../../ui/icons.tsx';
import { ClientForm } from './ClientForm.tsx';
import { clientBody, emptyClientForm, filterClients, formFromClient, type ClientFormValues } from './clientForm.ts';
import { createClient, deleteClient, invalidateClients, updateClient } from './queries.ts';
import { ErrorAlert, LoadingBlock, RetryAlert } from '../../ui/Status.tsx';
import { clientListQuery } from '../shared/queries.ts';

type FormState = { mode: 'closed' } | { mode: 'adding'; key: string } | { mode: 'editing'; key: string; client: ClientRecord };

/** A fresh Idempotency-Key (randomUUID needs a secure context; getRandomValues does not). */
function newKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

const FORM_ID = 'client-form';

export function ClientsScreen() {
  const queryClient = useQueryClient();
  const navigate = useNavigate({ from: '/app/clients' });
  const urlSearch = useSearch({ from: '/app/clients' });
  const list = useQuery(clientListQuery(api));
  const [search, setSearch] = useState(urlSearch.q ?? '');
  const [form, setForm] = useState<FormState>({ mode: 'closed' });
  const [saveError, setSaveError] = useState<string | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const addButtonRef = useRef<HTMLButtonElement>(null);
  /** Which form is open, for answers that arrive after the user has moved on. */
  const openFormKey = useRef<string | null>(null);
  useEffect(() => {
    openFormKey.current = form.mode === 'closed' ? null : form.key;
  }, [form]);

  const closeForm = () => {
    setForm({ mode: 'closed' });
    setSaveError(null);
    addButtonRef.current?.focus({ preventScroll: true });
  };

  const save = useCommand({
    run: async ({ values, state }: { values: ClientFormValues; state: Exclude<FormState, { mode: 'closed' }> }) =>
      state.mode === 'editing'
        ? updateClient(api, state.client.id, clientBody(values), state.client.version)
        : createClient(api, clientBody(values), state.key),
    onStart: () => setSaveError(null),
    onDone: async (saved, { state }) => {
      const warned = saved.warnings.map((w) => w.message).join(' ');
      setAnnouncement(`${state.mode === 'editing' ? 'Client updated' : 'Client saved'}: ${saved.name}. ${warned}`.trim());
      // Close the form this save came from (not one opened since, while the answer was on its way).
      if (openFormKey.current === state.key) closeForm();
      await invalidateClients(queryClient);
    },
    onFailed: (_, err, { state }) => {
      if (openFormKey.current === state.key) setSaveError(`Error saving client: ${errorDetail(err) ?? 'Request failed'}`);
      // A 409 means the client changed meanwhile: reload so the next Edit starts from the new version.
      void invalidateClients(queryClient);
    },
  });

  const remove = useCommand({
    run: (client: ClientRecord) => deleteClient(api, client.id),
    onStart: () => setDeleteError(null),
    onDone: async (_r, client) => {
      setAnnouncement(`Client deleted: ${client.name}`);
      // The deleted client's form, if it is open, has nothing left to update.
      if (openFormKey.current?.startsWith(`${client.id}@`)) closeForm();
      await invalidateClients(queryClient);
    },
    onFailed: () => setDeleteError('Error deleting client'),
  });

  const toggleForm = () => {
    if (form.mode === 'closed') {
      setSaveError(null);
      setForm({ mode: 'adding', key: newKey() });
    } else {
      closeForm();
    }
  };

  const edit = (client: ClientRecord) => {
    setSaveError(null);
    setForm({ mode: 'editing', key: `${client.id}@${client.version}`, client });
  };

  const confirmDelete = (client: ClientRecord) => {
    if (window.confirm('Are you sure you want to delete this client?')) remove.run(client);
  };

  const onSearch = (value: string) => {
    setSearch(value);
    // Kept in the address (replacing, not adding history), so Back from a client's history returns to the same search.
    void navigate({ search: value.trim() === '' ? {} : { q: value }, replace: true });
  };

  const clients = list.data;
  const shown = useMemo(() => (clients ? filterClients(clients, search) : []), [clients, search]);
  const searching = search.trim() !== '';

  return (
    <section className="screen clients" aria-labelledby="clients-title">
      <div className="screen-head">
        <div>
          <h1 id="clients-title" className="screen-title">
            Clients
          </h1>
          <p className="screen__subtitle">Manage your customers and business contacts</p>
        </div>
        <button
          ref={addButtonRef}
          type="button"
          className="button button--accent screen-head__action clients__add"
          aria-expanded={form.mode !== 'closed'}
          aria-controls={form.mode !== 'closed' ? FORM_ID : undefined}
          onClick={toggleForm}
        >
          <PlusIcon />
          Add Client
        </button>
      </div>

      {form.mode !== 'closed' && (
        <ClientForm
          key={form.key}
          id={FORM_ID}
          mode={form.mode}
          initial={form.mode === 'editing' ? formFromClient(form.client) : emptyClientForm}
          saving={save.pending}
          error={saveError}
          onSubmit={(values) => save.run({ values, state: form })}
          onCancel={closeForm}
        />
      )}

      <div className="clients__search">
        <label htmlFor="clients-search" className="visually-hidden">
          Search clients
        </label>
        <input
          id="clients-search"
          className="input client-input clients__search-input"
          type="search"
          placeholder="Search clients..."
          autoComplete="off"
          enterKeyHint="search"
          value={search}
          onChange={(e) => onSearch(e.target.value)}
        />
      </div>

      <p className="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>

      <ErrorAlert message={deleteError} />

      {list.isError && (
        <RetryAlert link onRetry={() => void list.refetch()} busy={list.isFetching}>
          Error: {errorDetail(list.error) ?? 'Failed to load clients'}
        </RetryAlert>
      )}

      {list.isPending && (
        <LoadingBlock />
      )}

      {clients && clients.length === 0 && (
        <div className="empty-state">
          <p className="empty-state__title">No clients yet</p>
          <p>Add your first client to get started</p>
        </div>
      )}

      {clients && clients.length > 0 && shown.length === 0 && searching && (
        <div className="empty-state">
          <p className="empty-state__title">No clients found</p>
          <p>Try adjusting your search</p>
        </div>
      )}

      {shown.length > 0 && (
        <ul className="grid-list client-grid" aria-label="Client list">
          {shown.map((c) => (
            <ClientCard
              key={c.id}
              client={c}
              deleting={remove.pending && remove.input?.id === c.id}
              onEdit={() => edit(c)}
              onDelete={() => confirmDelete(c)}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

function ClientCard({ client, deleting, onEdit, onDelete }: { client: ClientRecord; deleting: boolean; onEdit: () => void; onDelete: () => void }) {
  const business = client.is_business === 'true';
  const headingId = `client-${client.id}-name`;
  return (
    <li className="client-card">
      <article className="card card--item" aria-labelledby={headingId}>
        {business && <p className="badge badge--brand client-card__badge">BUSINESS</p>}
        <h2 id={headingId} className="client-card__name">
          <Link to="/app/clients/$id" params={{ id: client.id }} className="client-card__link">
            {client.name}
          </Link>
        </h2>
        {client.business_name && <p className="client-card__business">{client.business_name}</p>}
        {(client.email || client.phone || client.gst_number) && (
          <ul className="client-card__details">
            {client.email && <li>{client.email}</li>}
            {client.phone && <li>{client.phone}</li>}
            {client.gst_number && <li>GST: {client.gst_number}</li>}
          </ul>
        )}
        {client.warnings.map((w) => (
          <p key={w.field} className="callout callout--warning field__warning">
            {w.message}
          </p>
        ))}
        <div className="client-card__actions">
          <Link to="/app/clients/$id" params={{ id: client.id }} className="button button--ghost button--compact">
            History<span className="visually-hidden"> of {client.name}</span>
          </Link>
          <button type="button" className="button button--secondary button--compact" onClick={onEdit}>
            Edit<span className="visually-hidden"> {client.name}</span>
          </button>
          <button type="button" className="button button--danger button--compact" onClick={onDelete} disabled={deleting}>
            Delete<span className="visually-hidden"> {client.name}</span>
          </button>
        </div>
      </article>
    </li>
  );
}

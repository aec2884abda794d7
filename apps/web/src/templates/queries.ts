// The account's templates as server data (TanStack Query): the list, and the saves and deletes that
// change it. The plain work — the offline copy, the one-time upload of an old browser copy — is in
// templateStore.ts; this module keeps the query cache and that copy in step with the server.
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import {
  createTemplate, deleteTemplate, fetchTemplates, templateCache, type NewTemplate, type Template, type TemplateApi, type TemplateStorage,
} from './templateStore.ts';

export const templateKeys = {
  all: ['templates'] as const,
  /** Per user: on a shared browser one user's list is never shown to the next. */
  list: (userId: string) => [...templateKeys.all, userId] as const,
};

/** GET /templates for the signed-in user (their offline copy when the server cannot be reached). */
export const templatesQuery = (api: TemplateApi, storage: () => TemplateStorage, userId: string) =>
  queryOptions<Template[]>({
    queryKey: templateKeys.list(userId),
    queryFn: ({ signal }) => fetchTemplates(api, storage(), userId, signal),
    // What this browser last saw, at once, while the server's answer is on its way.
    placeholderData: () => templateCache(storage(), userId).read() ?? undefined,
  });

/** Puts a changed list in the query cache and the user's offline copy. */
function keep(queryClient: QueryClient, storage: TemplateStorage, userId: string, change: (list: readonly Template[]) => Template[]): void {
  const next = change(queryClient.getQueryData<Template[]>(templateKeys.list(userId)) ?? templateCache(storage, userId).read() ?? []);
  queryClient.setQueryData(templateKeys.list(userId), next);
  templateCache(storage, userId).write(next);
}

/** Saves a template on the server; once it has answered, the list shows it. Rejects with the api client's error. */
export async function saveTemplate(api: TemplateApi, queryClient: QueryClient, storage: TemplateStorage, userId: string, template: NewTemplate): Promise<Template> {
  const saved = await createTemplate(api, template);
  keep(queryClient, storage, userId, (list) => [...list.filter((t) => t.id !== saved.id), saved]);
  return saved;
}

/** Deletes a template on the server; once it has answered, the list no longer shows it. */
export async function removeTemplate(api: TemplateApi, queryClient: QueryClient, storage: TemplateStorage, userId: string, id: string): Promise<void> {
  await deleteTemplate(api, id);
  keep(queryClient, storage, userId, (list) => list.filter((t) => t.id !== id));
}

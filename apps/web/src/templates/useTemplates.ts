import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api } from '../api/client.ts';
import { useSessionUser } from '../app/useAuth.ts';
import { removeTemplate, saveTemplate, templatesQuery } from './queries.ts';
import { templateHandOver, type NewTemplate, type Template, type TemplateHandOver } from './templateStore.ts';

/** The signed-in user's templates, as the screens use them. */
export interface TemplateStore extends TemplateHandOver {
  /** The signed-in user's id; null while nobody is signed in (nothing is read or saved then). */
  readonly userId: string | null;
  /** Saves a new template on the server. Rejects (the api client's error) when it was not saved. */
  save(template: NewTemplate): Promise<Template>;
  /** Deletes a template on the server. Rejects when it was not deleted. */
  remove(id: string): Promise<void>;
}

const browserStorage = (): Storage => window.localStorage;
const NO_TEMPLATES: Template[] = [];

/** The template store for the signed-in user: the api client, the query cache and window.localStorage. */
export function useTemplateStore(): TemplateStore {
  const queryClient = useQueryClient();
  const userId = useSessionUser()?.id ?? null;
  return useMemo(() => {
    const signedIn = (): string => {
      if (!userId) throw new Error('Please sign in to keep templates');
      return userId;
    };
    return {
      userId,
      save: async (template) => saveTemplate(api, queryClient, browserStorage(), signedIn(), template),
      remove: async (id) => removeTemplate(api, queryClient, browserStorage(), signedIn(), id),
      ...templateHandOver(browserStorage()),
    };
  }, [queryClient, userId]);
}

/** The list and how its loading went, for a screen that says so. */
export function useTemplatesQuery(store: TemplateStore) {
  return useQuery({ ...templatesQuery(api, browserStorage, store.userId ?? ''), enabled: store.userId !== null });
}

/** The saved templates, oldest first (none until they have loaded). */
export function useTemplates(store: TemplateStore): Template[] {
  return useTemplatesQuery(store).data ?? NO_TEMPLATES;
}

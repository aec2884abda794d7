// Ids in paths are ours (UUIDs); anything much longer, or with other characters, can't name a
// document or a client, so it is not looked up at all (a NUL from a path's %00 cannot even be sent
// to PostgreSQL as text).
export const plausibleId = (id: string): boolean => /^[A-Za-z0-9_-]{1,100}$/.test(id);
